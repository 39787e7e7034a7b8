import Foundation
import GroveCore
import GroveSimulation
import GroveStore
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import GroveSync

#if Postgres
    import PostgresNIO
#endif

/// A hosted server holds many people's data: one token reaches its own user's data only, on every
/// route; a revoked device is refused at once wherever it calls; a push on one instance pokes the
/// streams open on another. Runs against SQLite, and against two PostgreSQL instances when
/// `GROVE_TEST_POSTGRES` is set in a `Postgres` build.
@Suite("Sync: many users, several instances")
struct MultiUserTests {
    static let start = Date(timeIntervalSince1970: 1_772_000_000)

    /// Two services on the run's instances (the same one twice with SQLite).
    static func services() async throws -> (SyncService, SyncService) {
        let instances = try await TestServers.instances()
        guard let first = instances.first, let last = instances.last else { throw SimulationFailure("no server") }
        let clock = TestClock(start)
        return (
            SyncService(store: first.store, pokes: first.pokes, now: { clock.now }, bcryptCost: 4),
            SyncService(store: last.store, pokes: last.pokes, now: { clock.now }, bcryptCost: 4)
        )
    }

    /// A device of `user` on `service` with one timer pushed.
    static func deviceWithATimer(_ user: String, on service: SyncService, prefix: UInt64) async throws -> (
        SimulatedDevice, DeviceCredentials
    ) {
        let network = SimulatedNetwork(seed: prefix)
        network.faulty = false
        let credentials = try await service.register(DeviceRegistration(user: user, password: "password1", deviceName: "\(user)'s laptop"))
        let device = try SimulatedDevice(
            name: user, start: start, skew: 0, idPrefix: prefix, zone: TimeZone(identifier: "UTC") ?? .current,
            service: service, network: network, credentials: credentials, user: user)
        _ = try device.database.timers.create(name: "\(user)'s timer", durationInSeconds: 600, todos: ["first"])
        _ = try await device.engine.sync()
        return (device, credentials)
    }

    @Test("a device a restored database lost is taken back on any instance, under the one key they share")
    func reclaimAcrossInstances() async throws {
        let (first, second) = try await Self.services()
        let name = TestServers.uniqueName("reclaim")
        let user = try await first.addUser(name: name, password: "password1")
        // Instances starting at once agree on the key, whichever wrote it first.
        async let one = first.store.serverSecret(candidate: Data(repeating: 1, count: 32))
        async let two = second.store.serverSecret(candidate: Data(repeating: 2, count: 32))
        let (key, other) = try await (one, two)
        #expect(key == other && key.count == 32)
        // A token the key made for a device whose row the database does not have (registered after its backup).
        let id = UUID(), prefix = Hex.random(bytes: 6)
        let token = "gsy_\(prefix)_\(try await first.secret(prefix: prefix, device: id, user: user))"
        await #expect(throws: SyncServerError.unknownDevice) { try await first.authenticate(token: token) }
        try await second.reclaim(token: token, DeviceReclaim(deviceId: id, user: name, deviceName: "late"))
        let caller = try await first.authenticate(token: token)
        #expect(caller.device.id == id && caller.user.id == user.id)
        #expect(try await first.devices(caller).first { $0.deviceId == id }?.reclaimedAt != nil)
        // Asked again, the same answer; the token shown for another device, refused.
        try await first.reclaim(token: token, DeviceReclaim(deviceId: id, user: name, deviceName: "late"))
        await #expect(throws: SyncServerError.unauthorized) {
            try await first.reclaim(token: token, DeviceReclaim(deviceId: UUID(), user: name, deviceName: "thief"))
        }
    }

    @Test("a restore point shows the account as it stood, on every store and instance, and no other account's rows")
    func restorePointOnEveryStore() async throws {
        let (first, second) = try await Self.services()
        let ada = TestServers.uniqueName("rp-ada"), bob = TestServers.uniqueName("rp-bob")
        let adaUser = try await first.addUser(name: ada, password: "password1")
        _ = try await first.addUser(name: bob, password: "password1")
        let (device, credentials) = try await Self.deviceWithATimer(ada, on: first, prefix: 91)
        _ = try await Self.deviceWithATimer(bob, on: second, prefix: 92)
        // The services' clock stands at the start: the timer was written then, the rename a minute later.
        #expect(try await !first.store.entities(userId: adaUser.id).isEmpty)
        let timer = try #require(try device.database.timers.all().first)
        let later = SyncService(store: second.store, now: { Self.start.addingTimeInterval(60) }, bcryptCost: 4)
        _ = try device.database.timers.update(id: timer.id, name: "renamed")
        let network = SimulatedNetwork(seed: 93)
        network.faulty = false
        device.engine.transport = SimulatedTransport(service: later, token: credentials.token, network: network)
        _ = try await device.engine.sync()
        let caller = try await first.authenticate(token: credentials.token)
        let then = try await later.snapshot(caller, asOf: Self.start, after: nil)
        let now = try await later.snapshot(caller, asOf: Self.start.addingTimeInterval(60), after: nil)
        let name = { (page: SnapshotPage) in page.changes.first { $0.entity == "timer" }?.fields["name"]?.text }
        #expect(name(then) == "\(ada)'s timer" && name(now) == "renamed")
        #expect(then.changes.allSatisfy { $0.entity != "timer" || $0.entityId == timer.id.uuidString })
    }

    @Test("a token reaches its own user's data only, on every route")
    func isolation() async throws {
        let (service, _) = try await Self.services()
        let ada = TestServers.uniqueName("ada"), bob = TestServers.uniqueName("bob")
        _ = try await service.addUser(name: ada, password: "password1")
        let bobUser = try await service.addUser(name: bob, password: "password1")
        let (_, bobCredentials) = try await Self.deviceWithATimer(bob, on: service, prefix: 71)
        let adaCredentials = try await service.register(DeviceRegistration(user: ada, password: "password1", deviceName: "ada's phone"))
        let bobEntities = try await service.store.entities(userId: bobUser.id)
        let bobHead = try await service.store.head(userId: bobUser.id).head
        #expect(!bobEntities.isEmpty && bobHead > 0)

        let app = Application(router: buildSyncRouter(service: service))
        try await app.test(.router) { client in
            let auth: HTTPFields = [.authorization: "Bearer \(adaCredentials.token)", .contentType: "application/json"]
            func body(_ response: TestResponse) -> String { String(buffer: response.body) }

            // Devices: only ada's are listed; bob's cannot be revoked with ada's token.
            try await client.execute(uri: "/sync/v1/devices", method: .get, headers: auth) { response in
                #expect(response.status == .ok)
                #expect(!body(response).contains(bobCredentials.deviceId.uuidString))
                #expect(body(response).contains(adaCredentials.deviceId.uuidString))
            }
            try await client.execute(uri: "/sync/v1/devices/\(bobCredentials.deviceId.uuidString)", method: .delete, headers: auth) {
                response in
                #expect(response.status == .notFound)
            }
            // Status and pull: ada's history is empty; nothing of bob's comes back.
            try await client.execute(uri: "/sync/v1/status", method: .get, headers: auth) { response in
                #expect(response.status == .ok)
                #expect(body(response).contains("\"head\":0"))
            }
            try await client.execute(uri: "/sync/v1/pull?cursor=0&full=true", method: .get, headers: auth) { response in
                #expect(response.status == .ok)
                #expect(body(response).contains("\"changes\":[]"))
                #expect(!body(response).contains("timer"))
            }
            // A push in bob's device's name with ada's token is refused and changes nothing.
            let mutation = SyncMutation(
                id: 1, hlc: HLC(millis: 1_772_000_000_000, counter: 0, node: "00000000000000aa"), entity: "timer",
                entityId: UUID().uuidString, op: .delete)
            let push = try SyncWire.encoder().encode(PushRequest(deviceId: bobCredentials.deviceId, mutations: [mutation]))
            try await client.execute(uri: "/sync/v1/push", method: .post, headers: auth, body: ByteBuffer(bytes: push)) { response in
                #expect(response.status == .forbidden, "\(body(response))")
            }
            // A fork makes a device of ada's account, never of bob's.
            try await client.execute(uri: "/sync/v1/devices/fork", method: .post, headers: auth) { response in
                #expect(response.status == .created)
            }
            // (The event stream, which never ends, is the caller's user's by the same lookup; a forged
            // token is refused below.)
            // A token with bob's prefix and another secret, or none at all, is refused everywhere.
            let forged = bobCredentials.token.dropLast(4) + "0000"
            for (uri, method) in [
                ("/sync/v1/devices", HTTPRequest.Method.get), ("/sync/v1/status", .get), ("/sync/v1/pull", .get),
                ("/sync/v1/events", .get), ("/sync/v1/devices/fork", .post), ("/sync/v1/push", .post),
            ] {
                try await client.execute(uri: uri, method: method, headers: [.authorization: "Bearer \(forged)"]) { response in
                    #expect(response.status == .unauthorized, "\(method) \(uri)")
                }
            }
        }
        // Health, readiness (the database answers) and the metrics of what just happened.
        try await app.test(.router) { client in
            try await client.execute(uri: "/healthz", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/readyz", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/metrics", method: .get) { response in
                let text = String(buffer: response.body)
                #expect(text.contains("grove_sync_pushes_total") && text.contains("grove_sync_push_duration_seconds_bucket"))
                #expect(text.contains("grove_sync_pulls_total") && text.contains("grove_sync_refusals_total"))
            }
        }
        // Bob's data and devices are as they were.
        #expect(try await service.store.entities(userId: bobUser.id) == bobEntities)
        #expect(try await service.store.head(userId: bobUser.id).head == bobHead)
        #expect(try await service.devices(service.authenticate(token: bobCredentials.token)).count == 1)
    }

    #if Postgres
        @Test("a PostgreSQL database migrated by a newer Grove is refused, and migrating again changes nothing")
        func newerSchemaRefused() async throws {
            guard let url = TestServers.postgresURL else { return }
            _ = try await TestServers.instances()
            let deployment = try PostgresDeployment(url: url, poolSize: 2, logger: .init(label: "grove.tests.schema"))
            try await deployment.withRunning { _ in
                try await PostgresSyncSchema.migrate(deployment.client, logger: .init(label: "grove.tests.schema"))
                let future = "sync-v999-\(UUID().uuidString)"
                try await deployment.client.query("INSERT INTO grove_sync_migration (name) VALUES (\(future))")
                await #expect(throws: SyncStoreSchemaError.newerSchema([future])) {
                    try await PostgresSyncSchema.migrate(deployment.client, logger: .init(label: "grove.tests.schema"))
                }
                try await deployment.client.query("DELETE FROM grove_sync_migration WHERE name = \(future)")
            }
        }
    #endif

    /// Six devices of one user, alternating between the instances, push eight changes each at once.
    static func pushAllAtOnce(_ services: [SyncService], user name: String) async throws {
        guard let service = services.first else { return }
        let user = try await service.addUser(name: name, password: "password1")
        var callers: [(SyncService, SyncService.Caller)] = []
        for k in 0..<6 {
            let on = services[k % services.count]
            let credentials = try await on.register(DeviceRegistration(user: name, password: "password1", deviceName: "device \(k)"))
            callers.append((on, try await on.authenticate(token: credentials.token)))
        }
        let millis: Int64 = 1_772_000_000_000
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (k, (on, caller)) in callers.enumerated() {
                group.addTask {
                    let timer = UUID().uuidString
                    for n in Int64(1)...8 {
                        let fields: SyncFields = [
                            "name": .text("T\(n)"), "durationInSeconds": .int(600), "icon": .text("timer"),
                            "colorHex": .text("#007AFF"), "notes": .null, "createdAt": .int(millis), "updatedAt": .int(millis + n),
                        ]
                        let mutation = SyncMutation(
                            id: n, hlc: HLC(millis: millis + n, counter: 0, node: String(format: "%016x", k + 1)),
                            entity: "timer", entityId: timer, op: .put, fields: fields, insert: n == 1)
                        let response = try await on.push(caller, PushRequest(deviceId: caller.device.id, mutations: [mutation]))
                        #expect(response.lastMutationId == n)
                    }
                }
            }
            try await group.waitForAll()
        }
        // 48 writes: the head is 48, every sequence number from 1 to 48 was handed out once (each timer
        // sits at its last one, the history holds all of them), each device's last id is 8.
        #expect(try await service.store.head(userId: user.id).head == 48)
        let entities = try await service.store.entities(userId: user.id)
        #expect(entities.count == 6)
        for state in entities.values { #expect(state.fields["name"] == .text("T8")) }
        for seq in Int64(1)...48 { #expect(try await service.store.digest(userId: user.id, seq: seq) != "", "seq \(seq)") }
        let devices = try await service.store.devices(userId: user.id)
        #expect(devices.map { $0.lastMutationId } == Array(repeating: 8, count: 6))
        let page = try await service.store.pull(userId: user.id, deviceId: callers[0].1.device.id, cursor: 0, limit: 100, includeOwn: true)
        #expect(
            page.changes.map { $0.seq } == page.changes.map { $0.seq }.sorted() && page.changes.count == 6 && page.cursor == 48
                && !page.hasMore)
    }

    @Test("one user's devices pushing at once, on every instance: each push lands once, in one unbroken sequence")
    func concurrentPushes() async throws {
        let (first, second) = try await Self.services()
        try await Self.pushAllAtOnce([first, second], user: TestServers.uniqueName("fay"))
        #if Postgres
            // The same with every push taking the user's row lock at once (the path optimistic pushes
            // fall back to after repeated races).
            if let postgres = first.store as? PostgresSyncStore, let instances = try? await TestServers.instances() {
                let locking = PostgresSyncStore(client: postgres.client, optimisticAttempts: 0)
                let services = instances.map { SyncService(store: locking, pokes: $0.pokes, now: { Self.start }, bcryptCost: 4) }
                try await Self.pushAllAtOnce(services, user: TestServers.uniqueName("gus"))
            }
        #endif
    }

    @Test("a refused push is the protocol's problem on every store (not a server error), and changes nothing")
    func refusalsStayTyped() async throws {
        let (service, _) = try await Self.services()
        let name = TestServers.uniqueName("erin")
        let user = try await service.addUser(name: name, password: "password1")
        let credentials = try await service.register(DeviceRegistration(user: name, password: "password1", deviceName: "laptop"))
        let caller = try await service.authenticate(token: credentials.token)
        // Mutation 5 from a device the server holds nothing of: a gap.
        let mutation = SyncMutation(
            id: 5, hlc: HLC(millis: 1_772_000_000_000, counter: 0, node: "00000000000000bb"), entity: "timer",
            entityId: UUID().uuidString, op: .delete)
        await #expect(throws: SyncServerError.self) {
            _ = try await service.push(caller, PushRequest(deviceId: credentials.deviceId, mutations: [mutation]))
        }
        #expect(try await service.store.head(userId: user.id).head == 0)
    }

    @Test("a revoked device is refused at once on every instance")
    func revocationEverywhere() async throws {
        let (first, second) = try await Self.services()
        let name = TestServers.uniqueName("carol")
        _ = try await first.addUser(name: name, password: "password1")
        let laptop = try await first.register(DeviceRegistration(user: name, password: "password1", deviceName: "laptop"))
        let phone = try await second.register(DeviceRegistration(user: name, password: "password1", deviceName: "phone"))
        _ = try await second.authenticate(token: phone.token)
        // The phone pulls and pushes on `second`: an instance whose store checks access inline now
        // knows its token and will not look it up for the next push or pull.
        let known = try await second.authenticateForSync(token: phone.token)
        _ = try await second.pull(known, cursor: 0, limit: 10, checksum: nil)
        _ = try await second.push(known, PushRequest(deviceId: phone.deviceId, mutations: []))
        try await first.revoke(try await first.authenticate(token: laptop.token), device: phone.deviceId)
        func refused(_ body: () async throws -> Void) async {
            do {
                try await body()
                Issue.record("a revoked device was served")
            } catch SyncServerError.unauthorized {
            } catch {
                Issue.record("refused with \(error), not unauthorized")
            }
        }
        for service in [first, second] {
            await refused { _ = try await service.authenticate(token: phone.token) }
            // Even where the token is known, the push's and the pull's own statements refuse it.
            await refused {
                _ = try await service.pull(try await service.authenticateForSync(token: phone.token), cursor: 0, limit: 10, checksum: nil)
            }
            await refused {
                _ = try await service.push(
                    try await service.authenticateForSync(token: phone.token), PushRequest(deviceId: phone.deviceId, mutations: []))
            }
            // A caller from before the revocation (what the token cache holds) gets nothing either.
            if service.store.checksAccessInline { await refused { _ = try await service.pull(known, cursor: 0, limit: 10, checksum: nil) } }
        }
        _ = try await second.authenticate(token: laptop.token)
    }

    @Test("a push on one instance pokes the streams open on the other")
    func pokesCrossInstances() async throws {
        let (first, second) = try await Self.services()
        let name = TestServers.uniqueName("dan")
        let user = try await first.addUser(name: name, password: "password1")
        let stream = await second.pokes.subscribe(user: user.id)
        let (device, _) = try await Self.deviceWithATimer(name, on: first, prefix: 91)
        let head = try await first.store.head(userId: user.id).head
        #expect(head > 0)
        // The first poke that reaches `second` carries the head (bounded wait: no sleep-and-hope).
        let received = try await withThrowingTaskGroup(of: Int64?.self) { group in
            group.addTask {
                for await poked in stream where poked >= head { return poked }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: .seconds(30))
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            return first
        }
        #expect(received == head)
        _ = device
    }
}
