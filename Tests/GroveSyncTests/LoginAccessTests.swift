import Foundation
import GRDB
import GroveCore
import GroveHTTP
import GroveSync
import GroveTestSupport
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// Who gets in, and in what order: the password gate's lanes, one account per person, bounded forks,
/// the proxy the operator names, `/metrics`.
@Suite("Logins and access to the sync server", .timeLimit(.minutes(5)))
struct LoginAccessTests {
    /// A check that waits until `release` is called: it holds the gate's one worker.
    final class Latch: @unchecked Sendable {
        private let semaphore = DispatchSemaphore(value: 0)
        func wait() { semaphore.wait() }
        func release() { semaphore.signal() }
    }

    /// The order checks ran in.
    final class Order: @unchecked Sendable {
        private let lock = NSLock()
        private var names: [String] = []
        func append(_ name: String) { lock.withLock { names.append(name) } }
        var all: [String] { lock.withLock { names } }
    }

    @Test("the owner's login is checked before a queue of guesses: trusted first, then clean addresses (newest first), then guessers")
    func lanesPutGuessesLast() async throws {
        let gate = PasswordGate(workers: 1, capacity: 4)
        let latch = Latch(), order = Order()
        let holding = Task {
            try await gate.run(lane: .failing, address: "10.0.0.1") {
                order.append("holding")
                latch.wait()
                return .success(false)
            }
        }
        while order.all.isEmpty { await Task.yield() }  // the worker has taken it: the gate is held
        var tasks: [Task<Bool, any Error>] = []
        func submit(_ name: String, _ lane: PasswordGate.Lane) {
            tasks.append(
                Task {
                    try await gate.run(lane: lane, address: name) {
                        order.append(name); return .success(true)
                    }
                })
        }
        submit("guess-1", .failing)
        while gate.waiting < 1 { await Task.yield() }
        submit("guess-2", .failing)
        while gate.waiting < 2 { await Task.yield() }
        submit("clean", .fresh)
        while gate.waiting < 3 { await Task.yield() }
        submit("newer", .fresh)
        while gate.waiting < 4 { await Task.yield() }
        // The lower lanes are full: another guesser is refused before anything is hashed; the owner is not.
        await #expect(throws: SyncServerError.loginsBusy(retryAfter: 1)) {
            _ = try await gate.run(lane: .failing, address: "guess-3") { .success(false) }
        }
        submit("owner", .trusted)
        while gate.waiting < 5 { await Task.yield() }
        // The address whose check is running cannot send another alongside it.
        await #expect(throws: SyncServerError.loginsBusy(retryAfter: 1)) {
            _ = try await gate.run(lane: .trusted, address: "10.0.0.1") { .success(true) }
        }
        latch.release()
        _ = try await holding.value
        for task in tasks { _ = try await task.value }
        #expect(order.all == ["holding", "owner", "newer", "clean", "guess-1", "guess-2"])
        #expect(gate.waiting == 0)
    }

    @Test("a made-up name costs no hash: its answer waits on a timer while the one worker is held, and is counted")
    func unknownNamesTakeNoWorker() async throws {
        let gate = PasswordGate(workers: 1, capacity: 4)
        let latch = Latch(), order = Order()
        // The first answer is a real check: it times how long one takes.
        #expect(try await gate.run(lane: .fresh, address: "10.0.0.9") { .success(false) } == false)
        let holding = Task {
            try await gate.run(lane: .failing, address: "10.0.0.1") {
                order.append("holding")
                latch.wait()
                return .success(false)
            }
        }
        while order.all.isEmpty { await Task.yield() }
        for index in 0..<8 {
            let answer = try await gate.decoy(
                lane: .fresh, address: "203.0.113.\(index)",
                record: {
                    order.append("counted"); return .success(false)
                },
                check: {
                    order.append("hashed"); return .success(false)
                })
            #expect(answer == false)
        }
        #expect(order.all == ["holding"] + Array(repeating: "counted", count: 8))
        latch.release()
        _ = try await holding.value
    }

    @Test("a guesser's address goes to the last lane; an address that logged in to the account goes first")
    func throttleChoosesTheLane() async throws {
        let now = Date()
        let service = SyncService(store: try SQLiteSyncStore(path: nil), now: { now }, bcryptCost: 4)
        _ = try await service.addUser(name: "ada", password: "password1")
        #expect(service.throttle.lane(user: "ada", address: "198.51.100.1", now: now) == .fresh)
        _ = try await service.register(DeviceRegistration(user: "ada", password: "password1", deviceName: "x"), address: "198.51.100.1")
        #expect(service.throttle.lane(user: "ada", address: "198.51.100.1", now: now) == .trusted)
        await #expect(throws: SyncServerError.badCredentials) {
            _ = try await service.register(
                DeviceRegistration(user: "ada", password: "guess-guess", deviceName: "x"), address: "203.0.113.9")
        }
        #expect(service.throttle.lane(user: "ada", address: "203.0.113.9", now: now) == .failing)
        #expect(service.throttle.lane(user: "bob", address: "203.0.113.9", now: now) == .failing)
    }

    @Test("one person, one account: case, width and accents name the same account, and its one throttle count")
    func namesAreCanonical() async throws {
        let service = SyncService(store: try SQLiteSyncStore(path: nil), bcryptCost: 4)
        let ada = try await service.addUser(name: "Ada", password: "password1")
        #expect(ada.name == "ada")
        for twin in ["ADA", "Adá", "ａｄａ", "Ada\u{0301}"] {
            await #expect(throws: SyncServerError.userExists("ada"), "\(twin)") {
                _ = try await service.addUser(name: twin, password: "password1")
            }
        }
        _ = try await service.register(DeviceRegistration(user: "ADÁ", password: "password1", deviceName: "x"))
        #expect(SyncUserName.canonical("İstanbul.Ünal") == SyncUserName.canonical("istanbul.unal"))
    }

    @Test("accounts made before names were canonical take the form, except where two collide: the younger keeps its exact name")
    func legacyNamesAreRenamedOnUpgrade() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("grove-names-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let legacy = try SQLiteSyncStore(path: path)
        _ = try await legacy.createUser(name: "Ada", passwordHash: "x", now: Date())
        _ = try await legacy.createUser(name: "ADA", passwordHash: "y", now: Date())
        _ = try await legacy.createUser(name: "Bob", passwordHash: "z", now: Date())
        // The store as the previous Grove left it: the names migration not applied yet.
        try await DatabaseQueue(path: path).write { db in
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'sync-v3-names'")
        }
        let service = SyncService(store: try SQLiteSyncStore(path: path), bcryptCost: 4)
        #expect(try await service.store.users().map(\.name).sorted() == ["ADA", "ada", "bob"])
        #expect(try await service.user(named: "ADA")?.passwordHash == "y")
        #expect(try await service.user(named: "Ada")?.passwordHash == "x")
        #expect(try await service.user(named: "BOB")?.passwordHash == "z")
    }

    @Test("copies of copies are bounded: three deep, and twelve per account")
    func forksAreBoundedPerAccount() async throws {
        let service = SyncService(store: try SQLiteSyncStore(path: nil), bcryptCost: 4)
        _ = try await service.addUser(name: "ada", password: "password1")
        let laptop = try await service.register(DeviceRegistration(user: "ada", password: "password1", deviceName: "laptop"))
        var caller = try await service.authenticate(token: laptop.token)
        for _ in 0..<SyncService.maxForkDepth {
            caller = try await service.authenticate(token: try await service.fork(caller).token)
        }
        await #expect(throws: SyncServerError.tooManyForks(limit: SyncService.maxForkDepth)) { _ = try await service.fork(caller) }
        // More copies of other devices, until the account has its twelve.
        var made = SyncService.maxForkDepth
        while made < SyncService.maxForksPerAccount {
            let device = try await service.register(DeviceRegistration(user: "ada", password: "password1", deviceName: "d\(made)"))
            let parent = try await service.authenticate(token: device.token)
            for _ in 0..<min(SyncService.maxForks, SyncService.maxForksPerAccount - made) {
                _ = try await service.fork(parent)
                made += 1
            }
        }
        let another = try await service.authenticate(
            token: try await service.register(DeviceRegistration(user: "ada", password: "password1", deviceName: "another")).token)
        await #expect(throws: SyncServerError.tooManyForks(limit: SyncService.maxForksPerAccount)) { _ = try await service.fork(another) }
    }

    /// A live server on loopback, as a proxy on this machine would reach it.
    static func live(
        _ access: SyncServerAccess, _ body: @escaping @Sendable (LiveClient, SyncService) async throws -> Void
    ) async throws {
        let now = Date()
        let service = SyncService(
            store: try SQLiteSyncStore(path: nil), now: { now }, bcryptCost: 4, throttle: LoginThrottle(freeFailures: 2))
        _ = try await service.addUser(name: "ada", password: "password1")
        _ = try await service.addUser(name: "bob", password: "password1")
        try await withLiveServer(buildSyncRouter(service: service, access: access)) { client in try await body(client, service) }
    }

    static func register(
        _ client: LiveClient, _ user: String, _ password: String, forwardedFor address: String
    ) async throws -> HTTPResponse.Status {
        let body = try SyncWire.encoder().encode(DeviceRegistration(user: user, password: password, deviceName: "x"))
        var headers: HTTPFields = [.contentType: "application/json"]
        if let name = HTTPField.Name("X-Forwarded-For") { headers[name] = address }
        return try await client.execute(uri: "/sync/v1/devices", method: .post, headers: headers, body: ByteBuffer(bytes: body)) {
            $0.status
        }
    }

    @Test("X-Forwarded-For is believed from a proxy the operator named, and from no one else")
    func forwardedOnlyFromANamedProxy() async throws {
        // Not named: a client that writes its own header is throttled as its socket address, whatever it claims.
        try await Self.live(SyncServerAccess()) { client, _ in
            let first = try await Self.register(client, "ada", "wrong-one", forwardedFor: "203.0.113.1")
            let second = try await Self.register(client, "ada", "wrong-two", forwardedFor: "203.0.113.2")
            let third = try await Self.register(client, "bob", "password1", forwardedFor: "203.0.113.3")
            #expect([first, second, third] == [.unauthorized, .unauthorized, .tooManyRequests])
        }
        #expect(throws: SyncServerError.self) { _ = try SyncServerAccess.proxies(["nginx"]) }
        #expect(try SyncServerAccess.proxies(["127.0.0.1", "::1"]) == ["127.0.0.1", "::1"])
    }

    @Test("/metrics: this machine only, not through a proxy; with a token, only for its bearer")
    func metricsAreTheOperators() async throws {
        try await Self.live(SyncServerAccess(trustedProxies: ["127.0.0.1"])) { client, _ in
            let local = try await client.execute(uri: "/metrics", method: .get) { $0.status }
            var headers: HTTPFields = [:]
            if let name = HTTPField.Name("X-Forwarded-For") { headers[name] = "203.0.113.1" }
            let proxied = try await client.execute(uri: "/metrics", method: .get, headers: headers) { $0.status }
            #expect([local, proxied] == [.ok, .forbidden])
        }
        let token = "metrics-token-0123456789"
        try await Self.live(SyncServerAccess(metricsToken: token)) { client, _ in
            let none = try await client.execute(uri: "/metrics", method: .get) { $0.status }
            let wrong = try await client.execute(
                uri: "/metrics", method: .get, headers: [.authorization: "Bearer wrong-token-0123456789"]
            ) { $0.status }
            let right = try await client.execute(uri: "/metrics", method: .get, headers: [.authorization: "Bearer \(token)"]) { $0.status }
            #expect([none, wrong, right] == [.unauthorized, .unauthorized, .ok])
        }
    }

    @Test("event streams are bounded per device and per account: the oldest ends, the newest is served")
    func eventStreamsAreBounded() async throws {
        let hub = PokeHub(perAccount: 3, perDevice: 2)
        let phone = UUID(), laptop = UUID()
        let first = await hub.subscribe(user: 1, device: phone)
        let second = await hub.subscribe(user: 1, device: phone)
        let third = await hub.subscribe(user: 1, device: phone)  // the phone's third: its first ends
        var ended = first.makeAsyncIterator()
        #expect(await ended.next() == nil)
        #expect(await hub.listeners == 2)
        _ = await hub.subscribe(user: 1, device: laptop)
        let other = await hub.subscribe(user: 2, device: UUID())  // another account is not counted
        _ = await hub.subscribe(user: 1, device: laptop)  // the account's fourth: its oldest (the phone's second) ends
        var oldest = second.makeAsyncIterator()
        #expect(await oldest.next() == nil)
        #expect(await hub.listeners == 4)
        await hub.poke(user: 1, head: 7)
        var newest = third.makeAsyncIterator()
        #expect(await newest.next() == 7)
        _ = other
    }

    @Test("a disabled account's devices are told so (403), not to log in again; enabled, they sync on")
    func disabledAccountSaysSo() async throws {
        let store = try SQLiteSyncStore(path: nil)
        let service = SyncService(store: store, bcryptCost: 4)
        _ = try await service.addUser(name: "ada", password: "password1")
        let laptop = try await service.register(DeviceRegistration(user: "ada", password: "password1", deviceName: "laptop"))
        let caller = try await service.authenticateForSync(token: laptop.token)  // remembered by the token cache
        #expect(try await store.setUser(named: "ada", disabled: true))
        await #expect(throws: SyncServerError.accountDisabled) { _ = try await service.authenticate(token: laptop.token) }
        // The cached token's pull is refused by the store's own statement, and said as the same.
        await #expect(throws: SyncServerError.accountDisabled) {
            _ = try await service.pull(try await service.authenticateForSync(token: laptop.token), cursor: 0, limit: 10, checksum: nil)
        }
        #expect(SyncProblem(SyncServerError.accountDisabled).status == 403)
        #expect(SyncProblem(SyncServerError.accountDisabled).detail.contains("disabled"))
        #expect(try await store.setUser(named: "ada", disabled: false))
        _ = try await service.pull(try await service.authenticateForSync(token: laptop.token), cursor: 0, limit: 10, checksum: nil)
        _ = caller
    }
}
