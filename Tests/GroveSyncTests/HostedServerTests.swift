import Foundation
import GRDB
import GroveCore
import GroveHTTP
import GroveSimulation
import GroveStore
import GroveSync
import GroveTestSupport
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// The hosted server under the attacks SYNC.md names: guessing, a revoked device, power loss, a
/// wrong file given as its database.
@Suite("Hosted sync server")
struct HostedServerTests {
    static func temporaryDirectory(_ name: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("grove-\(name)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test("wrong passwords are throttled per account and per address, before any password is checked, with 429 and Retry-After")
    func throttling() async throws {
        // The clock stands still: the first wait (1 s) cannot run out while a loaded machine hashes.
        let now = Date()
        let service = SyncService(
            store: try SQLiteSyncStore(path: nil), now: { now }, bcryptCost: 4, throttle: LoginThrottle(freeFailures: 3))
        _ = try await service.addUser(name: "ada", password: "password1")
        _ = try await service.addUser(name: "bob", password: "password1")
        for _ in 0..<3 {
            await #expect(throws: SyncServerError.badCredentials) {
                _ = try await service.register(
                    DeviceRegistration(user: "ada", password: "guess-guess", deviceName: "x"), address: "203.0.113.9")
            }
        }
        // The fourth try waits, even with the right password: the guesser learns nothing.
        await #expect(throws: SyncServerError.self) {
            do {
                _ = try await service.register(
                    DeviceRegistration(user: "ada", password: "password1", deviceName: "x"), address: "198.51.100.1")
            } catch SyncServerError.throttled(let seconds) { #expect(seconds >= 1); throw SyncServerError.throttled(retryAfter: seconds) }
        }
        // The same address is refused for another account too; another account from elsewhere is not.
        await #expect(throws: SyncServerError.self) {
            do {
                _ = try await service.register(
                    DeviceRegistration(user: "bob", password: "password1", deviceName: "x"), address: "203.0.113.9")
            } catch SyncServerError.throttled(let seconds) { throw SyncServerError.throttled(retryAfter: seconds) }
        }
        _ = try await service.register(DeviceRegistration(user: "bob", password: "password1", deviceName: "x"), address: "198.51.100.1")

        // Over HTTP: 429, a problem naming the wait, and Retry-After.
        let app = Application(router: buildSyncRouter(service: service))
        try await app.test(.router) { client in
            let body = try SyncWire.encoder().encode(DeviceRegistration(user: "ada", password: "password1", deviceName: "x"))
            try await client.execute(
                uri: "/sync/v1/devices", method: .post, headers: [.contentType: "application/json"], body: ByteBuffer(bytes: body)
            ) { response in
                #expect(response.status == .tooManyRequests)
                #expect(Int(response.headers[.retryAfter] ?? "") ?? 0 >= 1)
                #expect(String(buffer: response.body).contains("too-many-attempts"))
            }
        }
    }

    @Test("a login clears no count, and guessing at a name cannot lock its owner out of an address it used")
    func throttleCountsFailuresNotSuccesses() async throws {
        let now = Date()
        let service = SyncService(
            store: try SQLiteSyncStore(path: nil), now: { now }, bcryptCost: 4, throttle: LoginThrottle(freeFailures: 3))
        _ = try await service.addUser(name: "ada", password: "password1")
        _ = try await service.addUser(name: "mallory", password: "password1")
        func register(_ user: String, _ password: String, from address: String) async -> String {
            do {
                _ = try await service.register(DeviceRegistration(user: user, password: password, deviceName: "x"), address: address)
                return "ok"
            } catch SyncServerError.throttled { return "throttled" } catch { return "refused" }
        }
        // Ada's laptop logs in once.
        #expect(await register("ada", "password1", from: "198.51.100.1") == "ok")
        // A guesser with an account of its own logs in between guesses at Ada's: its count still grows.
        var answers: [String] = []
        for _ in 0..<3 {
            answers.append(await register("ada", "guess-guess", from: "203.0.113.9"))
            answers.append(await register("mallory", "password1", from: "203.0.113.9"))
        }
        #expect(answers.filter { $0 == "refused" }.count == 3)
        #expect(await register("ada", "guess-guess", from: "203.0.113.9") == "throttled")
        // Ada's account is held back for new addresses (the guesser learns nothing), not for her laptop.
        #expect(await register("ada", "password1", from: "192.0.2.77") == "throttled")
        #expect(await register("ada", "password1", from: "198.51.100.1") == "ok")
    }

    @Test("HEAD on the sync server's GET routes answers as the GET does, without a body")
    func headOnGetRoutes() async throws {
        let service = SyncService(store: try SQLiteSyncStore(path: nil), bcryptCost: 4)
        let app = Application(router: buildSyncRouter(service: service))
        try await app.test(.router) { client in
            for path in ["/healthz", "/readyz", "/metrics", "/sync/v1/pull", "/nowhere"] {
                let get = try await client.execute(uri: path, method: .get) { ($0.status, $0.headers[.contentType]) }
                try await client.execute(uri: path, method: .head) { response in
                    #expect(response.status == get.0, "HEAD \(path)")
                    #expect(response.headers[.contentType] == get.1, "HEAD \(path)")
                    #expect(response.body.readableBytes == 0, "HEAD \(path)")
                }
            }
        }
    }

    @Test("a revoked device's open event stream ends at once")
    func revocationEndsStreams() async throws {
        let service = SyncService(store: try SQLiteSyncStore(path: nil), bcryptCost: 4)
        _ = try await service.addUser(name: "ada", password: "password1")
        let laptop = try await service.register(DeviceRegistration(user: "ada", password: "password1", deviceName: "laptop"))
        let phone = try await service.register(DeviceRegistration(user: "ada", password: "password1", deviceName: "phone"))
        let caller = try await service.authenticate(token: laptop.token)
        let phoneCaller = try await service.authenticate(token: phone.token)
        let stream = await service.pokes.subscribe(user: caller.user.id, device: phone.deviceId)
        let kept = await service.pokes.subscribe(user: caller.user.id, device: laptop.deviceId)
        try await service.revoke(caller, device: phoneCaller.device.id)
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next() == nil)
        #expect(await service.pokes.listeners == 1)
        _ = kept
        await #expect(throws: SyncServerError.unauthorized) { _ = try await service.authenticate(token: phone.token) }
    }

    @Test("the server's file commits with fsync, is its owner's alone, and its directory is made 0700")
    func durableAndPrivate() async throws {
        let directory = try Self.temporaryDirectory("sync-files") + "/state"
        let path = directory + "/sync-server.sqlite"
        let store = try SQLiteSyncStore(path: path)
        _ = try await store.createUser(name: "ada", passwordHash: "x", now: Date())
        #expect(try await store.synchronousLevel() == 2, "PRAGMA synchronous on the writing connection: 2 is FULL")
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let folder = try FileManager.default.attributesOfItem(atPath: directory)
        #expect((folder[.posixPermissions] as? Int) == 0o700)
    }

    @Test("a device store, another program's database or a missing directory is refused and left as it was")
    func refusesOtherFiles() async throws {
        let directory = try Self.temporaryDirectory("sync-foreign")
        // A Grove device store.
        let device = directory + "/grove.sqlite"
        let store = try AppDatabase.open(path: device)
        _ = try store.timers.create(name: "Essay", durationInSeconds: 600)
        try store.close()
        // Left as it was: its bytes, its permissions (a refused file is not narrowed), its folder.
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: device)
        let before = try Data(contentsOf: URL(fileURLWithPath: device))
        let listing = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(throws: StoreError.self) { _ = try SQLiteSyncStore(path: device) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: device)) == before)
        #expect(try FileManager.default.attributesOfItem(atPath: device)[.posixPermissions] as? Int == 0o644)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == listing)
        // The other way round: grove given the sync server's file says what it is.
        let server = directory + "/server.sqlite"
        _ = try SQLiteSyncStore(path: server)
        do {
            _ = try AppDatabase.open(path: server)
            Issue.record("grove opened the sync server's file as its store")
        } catch {
            #expect("\(error)".contains("Grove sync server"), "\(error)")
        }
        // Another program's database.
        let other = directory + "/history.sqlite"
        let queue = try DatabaseQueue(path: other)
        try await queue.write { db in try db.execute(sql: "CREATE TABLE visits (url TEXT)") }
        try queue.close()
        let otherBefore = try Data(contentsOf: URL(fileURLWithPath: other))
        #expect(throws: StoreError.self) { _ = try SQLiteSyncStore(path: other) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: other)) == otherBefore)
        // A path in a directory that does not exist: nothing is created.
        let missing = directory + "/no-such-dir/sub/sync.sqlite"
        #expect(throws: StoreError.missingDirectory(path: missing, directory: directory + "/no-such-dir/sub")) {
            _ = try SQLiteSyncStore(path: missing, createDirectory: false)
        }
        #expect(!FileManager.default.fileExists(atPath: directory + "/no-such-dir"))
        // Its own file opens again.
        let own = directory + "/sync.sqlite"
        _ = try SQLiteSyncStore(path: own)
        _ = try SQLiteSyncStore(path: own)
    }

    /// A world with one device, as the server sees it, and that device's first clock: for pushes made by hand.
    static func pushingDevice() async throws -> (SyncFaultTests.World, SyncService.Caller, SyncDevice, HLC) {
        let world = try await SyncFaultTests.World()
        let a = try await world.device()
        let token = (a.engine.transport as? SimulatedTransport)?.token ?? ""
        let caller = try await world.service.authenticate(token: token)
        let device = try #require(try a.database.sync.device())
        return (world, caller, device, HLC(millis: SyncFaultTests.startMillis, counter: 0, node: device.node))
    }

    @Test("a pushed value that breaks a rule of the core is refused naming its field, and nothing is stored")
    func valuesChecked() async throws {
        let (world, caller, device, clock) = try await Self.pushingDevice()
        let timer = UUID().uuidString
        let fields: SyncFields = [
            "name": .text("Tea"), "durationInSeconds": .int(-60), "icon": .text("cup"), "colorHex": .text("#112233"),
            "notes": .null, "createdAt": .int(SyncFaultTests.startMillis), "updatedAt": .int(SyncFaultTests.startMillis),
        ]
        let cases: [(SyncMutation, String)] = [
            (
                SyncMutation(id: 1, hlc: clock, entity: "timer", entityId: timer, op: .put, fields: fields, insert: true),
                "fields.durationInSeconds"
            ),
            (
                SyncMutation(id: 1, hlc: clock, entity: "focusPreferences", entityId: "focus", op: .put, fields: ["focusMs": .int(0)]),
                "fields.focusMs"
            ),
            (
                SyncMutation(
                    id: 1, hlc: clock, entity: "userPreferences", entityId: "user", op: .put,
                    fields: ["dailyEnabled": .bool(true), "dailyTime": .text("25:99")]), "fields.dailyTime"
            ),
            (
                SyncMutation(id: 1, hlc: clock, entity: "theme", entityId: UUID().uuidString, op: .put, fields: ["name": .text("   ")]),
                "fields.name"
            ),
        ]
        for (mutation, field) in cases {
            await #expect(throws: SyncServerError.push(.invalid(mutationId: 1, field: field, message: ""))) {
                do {
                    _ = try await world.service.push(caller, PushRequest(deviceId: device.deviceId, mutations: [mutation]))
                } catch SyncServerError.push(.invalid(let id, let f, _)) {
                    throw SyncServerError.push(.invalid(mutationId: id, field: f, message: ""))
                }
            }
        }
        #expect(try await world.store.entities(userId: world.userId).isEmpty)
        // A session whose focus time exceeds its length is refused once the row is whole.
        let session: SyncFields = [
            "startTime": .int(SyncFaultTests.startMillis), "endTime": .int(SyncFaultTests.startMillis + 60_000),
            "state": .text("completed"),
            "durationMs": .int(3_000_000), "pausedMs": .int(0), "plannedMs": .int(1_500_000), "pausedAt": .null,
            "createdAt": .int(SyncFaultTests.startMillis),
            "timeZone": .text("Europe/Berlin"), "endDay": .text("2026-02-25"), "clockUncertain": .bool(false),
        ]
        let bad = SyncMutation(id: 1, hlc: clock, entity: "focusSession", entityId: UUID().uuidString, op: .put, fields: session)
        await #expect(throws: SyncServerError.self) {
            _ = try await world.service.push(caller, PushRequest(deviceId: device.deviceId, mutations: [bad]))
        }
        #expect(try await world.store.entities(userId: world.userId).isEmpty)
    }

    @Test("a change its device set aside stands as a skip, even of a kind this server does not know: taken, not refused again")
    func skipOfUnknownKind() async throws {
        let (world, caller, device, clock) = try await Self.pushingDevice()
        let unknown = SyncMutation(id: 1, hlc: clock, entity: "kindFromTheFuture", entityId: "x", op: .put, fields: ["a": .int(1)])
        await #expect(throws: SyncServerError.self) {
            _ = try await world.service.push(caller, PushRequest(deviceId: device.deviceId, mutations: [unknown]))
        }
        let skip = SyncMutation(id: 1, hlc: clock, entity: "kindFromTheFuture", entityId: "x", op: .skip)
        let answer = try await world.service.push(caller, PushRequest(deviceId: device.deviceId, mutations: [skip]))
        #expect(answer.lastMutationId == 1)
        #expect(try await world.store.entities(userId: world.userId).isEmpty)
    }

    @Test("forks are bounded per device and end with the revocation of the device they came from, at any depth")
    func forkLineage() async throws {
        let service = SyncService(store: try SQLiteSyncStore(path: nil), bcryptCost: 4)
        _ = try await service.addUser(name: "ada", password: "password1")
        let laptop = try await service.register(DeviceRegistration(user: "ada", password: "password1", deviceName: "laptop"))
        let phone = try await service.register(DeviceRegistration(user: "ada", password: "password1", deviceName: "phone"))
        let parent = try await service.authenticate(token: laptop.token)
        var forks: [DeviceCredentials] = []
        for _ in 0..<SyncService.maxForks { forks.append(try await service.fork(parent)) }
        await #expect(throws: SyncServerError.tooManyForks(limit: SyncService.maxForks)) { _ = try await service.fork(parent) }
        // A fork of a fork.
        let grandchild = try await service.fork(try await service.authenticate(token: forks[0].token))
        let stream = await service.pokes.subscribe(user: parent.user.id, device: grandchild.deviceId)
        let owner = try await service.authenticate(token: phone.token)
        try await service.revoke(owner, device: laptop.deviceId)
        for credentials in [laptop] + forks + [grandchild] {
            await #expect(throws: SyncServerError.unauthorized) { _ = try await service.authenticate(token: credentials.token) }
        }
        var events = stream.makeAsyncIterator()
        #expect(await events.next() == nil)
        _ = try await service.authenticate(token: phone.token)
        let listed = try await service.devices(owner)
        #expect(listed.filter(\.revoked).count == 2 + SyncService.maxForks)
        #expect(listed.first { $0.deviceId == grandchild.deviceId }?.parentId == forks[0].deviceId)
    }

    @Test("behind a proxy the operator named, the address throttled is the one the proxy saw (X-Forwarded-For), not the proxy's")
    func throttlingBehindAProxy() async throws {
        let now = Date()
        let service = SyncService(
            store: try SQLiteSyncStore(path: nil), now: { now }, bcryptCost: 4, throttle: LoginThrottle(freeFailures: 2))
        _ = try await service.addUser(name: "ada", password: "password1")
        _ = try await service.addUser(name: "bob", password: "password1")
        try await withLiveServer(buildSyncRouter(service: service, access: SyncServerAccess(trustedProxies: ["127.0.0.1"]))) { client in
            func register(_ user: String, _ password: String, from address: String) async throws -> HTTPResponse.Status {
                let body = try SyncWire.encoder().encode(DeviceRegistration(user: user, password: password, deviceName: "x"))
                var headers: HTTPFields = [.contentType: "application/json"]
                if let name = HTTPField.Name("X-Forwarded-For") { headers[name] = "10.9.8.7, \(address)" }
                return try await client.execute(uri: "/sync/v1/devices", method: .post, headers: headers, body: ByteBuffer(bytes: body)) {
                    $0.status
                }
            }
            let first = try await register("ada", "wrong-one", from: "203.0.113.9")
            #expect(first == .unauthorized)
            #expect(try await register("ada", "wrong-two", from: "203.0.113.9") == .unauthorized)
            #expect(try await register("bob", "password1", from: "203.0.113.9") == .tooManyRequests)
            // Everyone else behind the same proxy is not punished for it.
            #expect(try await register("bob", "password1", from: "198.51.100.7") == .created)
        }
    }
}
