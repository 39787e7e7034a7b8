// The yardstick of `scripts/idle-wakeups.py`: the smallest Hummingbird server there is, one route, on
// loopback. An idle `grove serve` should wake about as rarely as this does.
import Hummingbird

let port = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 8090
let router = Router()
router.get("/") { _, _ in "Hello" }
let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
try await app.runService()
