import Foundation
import GroveCore
import GroveSimulation
import GroveStore
import GroveSync
import Testing

/// The faults SYNC.md names, one test each, on an in-process server (direct calls, no sockets).
@Suite("Sync faults")
struct SyncFaultTests {
    static let start = Date(timeIntervalSince1970: 1_772_000_000)
    static let zone = TimeZone(identifier: "Europe/Berlin") ?? .current
    static let startMillis: Int64 = 1_772_000_000_000

    /// A server, its clock and a way to add devices.
    final class World: @unchecked Sendable {
        let serverClock = TestClock(SyncFaultTests.start)
        let network = SimulatedNetwork(seed: 1)
        var store: SQLiteSyncStore
        var service: SyncService
        var userId: Int64 = 0
        var count: UInt64 = 0

        init(path: String? = nil) async throws {
            network.faulty = false
            store = try SQLiteSyncStore(path: path)
            let clock = serverClock
            service = SyncService(store: store, now: { clock.now }, bcryptCost: 4)
            userId = try await service.addUser(name: "ada", password: "password1").id
        }

        func reopen(path: String) throws {
            store = try SQLiteSyncStore(path: path)
            let clock = serverClock
            service = SyncService(store: store, now: { clock.now }, bcryptCost: 4)
        }

        func device(skew: TimeInterval = 0, idPrefix: UInt64? = nil, beforeLink: (AppDatabase) throws -> Void = { _ in }) async throws
            -> SimulatedDevice
        {
            count += 1
            let credentials = try await service.register(DeviceRegistration(user: "ada", password: "password1", deviceName: "d\(count)"))
            let device = try SimulatedDevice(
                name: "d\(count)", start: serverClock.now, skew: skew, idPrefix: idPrefix ?? 1000 + count,
                zone: SyncFaultTests.zone, service: service, network: network, credentials: credentials, user: "ada",
                beforeLink: beforeLink)
            return device
        }

        /// Rebinds a device's transport to the current service (after a server restart).
        func reconnect(_ device: SimulatedDevice) {
            guard let transport = device.engine.transport as? SimulatedTransport else { return }
            device.engine.transport = SimulatedTransport(service: service, token: transport.token, network: network)
        }

        func advance(_ seconds: TimeInterval, _ devices: [SimulatedDevice]) {
            serverClock.advance(by: seconds)
            for device in devices { device.clock.advance(by: seconds) }
        }

        func expectConverged(_ devices: [SimulatedDevice], sourceLocation: SourceLocation = #_sourceLocation) async throws {
            let expected = SyncSnapshot.canonical(try await store.entities(userId: userId))
            for device in devices {
                let snapshot = try device.database.sync.snapshot()
                #expect(
                    snapshot == expected, "\(device.name): \(Simulation.difference(snapshot, expected))", sourceLocation: sourceLocation)
                #expect(try device.database.sync.pendingCount() == 0, sourceLocation: sourceLocation)
            }
        }
    }

    @Test("a device offline for weeks catches up, and deletions it missed past the horizon still reach it")
    func offlineForWeeks() async throws {
        let world = try await World()
        let a = try await world.device(), b = try await world.device()
        let essay = try a.database.timers.create(name: "Essay", durationInSeconds: 600)
        _ = try a.database.timers.create(name: "Reading", durationInSeconds: 900)
        _ = try await a.engine.sync()
        _ = try await b.engine.sync()
        // b goes away for 100 days and edits offline; a deletes a timer and goes on.
        _ = try b.database.timers.create(name: "Written offline", durationInSeconds: 300)
        try a.database.timers.delete(id: essay.id)
        _ = try await a.engine.sync()
        world.advance(100 * 86_400, [a, b])
        _ = try await a.engine.sync()
        let pruned = try await world.store.pruneTombstones(
            userId: world.userId, olderThan: world.serverClock.now.addingTimeInterval(-90 * 86_400),
            devicesSeenSince: world.serverClock.now.addingTimeInterval(-90 * 86_400))
        #expect(pruned == 1)
        let summary = try await b.engine.sync()
        #expect(summary.notes.contains { $0.contains("pulled everything again") })
        #expect(try b.database.timers.find(id: essay.id) == nil)
        _ = try await a.engine.sync()
        try await world.expectConverged([a, b])
        #expect(try a.database.timers.all().map(\.name).sorted() == ["Reading", "Written offline"])
    }

    @Test("a copied store is found out and becomes a device of its own; nothing either wrote is lost")
    func clonedStore() async throws {
        let world = try await World()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("grove-clone-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let a = try await world.device()
        _ = try a.database.timers.create(name: "Before the copy", durationInSeconds: 600)
        _ = try await a.engine.sync()
        // The copy: same device id, same token, same mutation numbers.
        let copyPath = directory + "/copy.sqlite"
        try a.database.backup(to: copyPath)
        let copy = try AppDatabase.open(path: copyPath, environment: a.database.environment, concurrentReads: false)
        guard let transport = a.engine.transport as? SimulatedTransport else { Issue.record("transport"); return }
        let network = world.network, service = world.service
        var copyEngine = SyncEngine(database: copy, transport: transport) {
            SimulatedTransport(service: service, token: $0.token, network: network)
        }
        _ = try a.database.timers.create(name: "On the original", durationInSeconds: 60)
        _ = try copy.timers.create(name: "On the copy", durationInSeconds: 60)
        _ = try await a.engine.sync()
        let summary = try await copyEngine.sync()
        #expect(summary.notes.contains { $0.contains("copy") })
        #expect(try copy.sync.device()?.deviceId != a.database.sync.device()?.deviceId)
        _ = try await a.engine.sync()
        _ = try await copyEngine.sync()
        let names = try a.database.timers.all().map(\.name).sorted()
        #expect(names == ["Before the copy", "On the copy", "On the original"])
        #expect(try copy.sync.snapshot() == a.database.sync.snapshot())
    }

    @Test("a reinstalled device (a new, empty store) gets everything and changes nothing by joining")
    func reinstall() async throws {
        let world = try await World()
        let a = try await world.device()
        _ = try a.database.focus.changePreferences { $0.focusDuration = 50 * 60 }
        _ = try a.database.timers.create(name: "Essay", durationInSeconds: 600, todos: ["outline", "draft"])
        _ = try await a.engine.sync()
        world.advance(3600, [a])
        let fresh = try await world.device()
        _ = try await fresh.engine.sync()
        _ = try await a.engine.sync()
        #expect(try fresh.database.focus.preferences().focusDuration == 50 * 60)
        #expect(try fresh.database.timers.all().first?.todoItems.map(\.text) == ["outline", "draft"])
        try await world.expectConverged([a, fresh])
    }

    @Test("a content pack's items travel with their source: a device that follows the same source finds them its own")
    func contentPacksAcrossDevices() async throws {
        let world = try await World()
        let a = try await world.device(), b = try await world.device()
        let url = "https://packs.example/calm.json"
        let text = "Between stimulus and response there is a space; in that space is our power to choose a response."
        let pack = ContentPack(items: [
            MindfulnessContent(id: "calm-1", type: .quote, text: text, category: .nature),
            MindfulnessContent(id: "calm-2", type: .prompt, text: text + " Breathe.", category: .nature),
        ])
        try a.database.content.addSource(url: url)
        try a.database.content.apply(pack, from: url, etag: "\"1\"")
        // A pause on `a` shows calm-1, so that dropping it later retires it instead of deleting it.
        _ = try a.database.pause.changePreferences { $0.selectedCategories = [.nature] }
        var shown = ""
        while shown != "calm-1" { shown = try a.database.pause.start(appId: "instagram", platform: "test").content.id }
        _ = try await a.engine.sync()
        _ = try await b.engine.sync()
        #expect(try b.database.content.item(id: "calm-1")?.source == url)
        // `b` follows the same source: the same items, found its own, nothing skipped.
        try b.database.content.addSource(url: url)
        let onB = try b.database.content.apply(pack, from: url, etag: "\"1\"")
        #expect(onB.updated == 2 && onB.added == 0 && onB.skipped.isEmpty)
        // `a` sees the pack drop calm-1: retired everywhere, still there for the pause that showed it.
        try a.database.content.apply(ContentPack(items: [pack.items[1]]), from: url, etag: "\"2\"")
        _ = try await a.engine.sync()
        _ = try await b.engine.sync()
        _ = try await a.engine.sync()
        #expect(try b.database.content.all().map(\.id).contains("calm-1") == false)
        #expect(try b.database.content.item(id: "calm-1") != nil)
        try await world.expectConverged([a, b])
    }

    @Test("a revoked token is refused; the device's changes wait")
    func revoked() async throws {
        let world = try await World()
        let a = try await world.device(), b = try await world.device()
        let caller = try await world.service.authenticate(token: (a.engine.transport as? SimulatedTransport)?.token ?? "")
        try await world.service.revoke(caller, device: try #require(try b.database.sync.device()?.deviceId))
        _ = try b.database.timers.create(name: "Kept", durationInSeconds: 60)
        await #expect(throws: SyncProblem.self) { _ = try await b.engine.sync() }
        #expect(try b.database.sync.pendingCount() > 0)
        #expect(try b.database.sync.status()?.device.lastError != nil)
    }

    @Test("a server restored from an older backup gets back what it lost from the devices")
    func serverRestore() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("grove-restore-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/server.sqlite"
        let world = try await World(path: path)
        let a = try await world.device(), b = try await world.device()
        _ = try a.database.timers.create(name: "Old", durationInSeconds: 60)
        _ = try await a.engine.sync()
        _ = try await b.engine.sync()
        try await world.store.backup(to: directory + "/backup.sqlite")
        _ = try a.database.timers.create(name: "Lost by the server", durationInSeconds: 60)
        try a.database.intentions.set("Also lost", scope: .day)
        _ = try await a.engine.sync()
        _ = try await b.engine.sync()
        // The restore: the server starts again from the backup.
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        try FileManager.default.copyItem(atPath: directory + "/backup.sqlite", toPath: path)
        try world.reopen(path: path)
        world.reconnect(a)
        world.reconnect(b)
        _ = try b.database.timers.create(name: "After the restore", durationInSeconds: 60)
        let summary = try await b.engine.sync()
        #expect(!summary.notes.isEmpty)
        _ = try await a.engine.sync()
        _ = try await b.engine.sync()
        let names = try await Set(
            world.store.entities(userId: world.userId).filter { $0.key.entity == "timer" }.compactMap { $0.value.fields["name"]?.text })
        #expect(names == ["Old", "Lost by the server", "After the restore"])
        try await world.expectConverged([a, b])
    }

    /// A transport whose server takes at most `limit` mutations a push (answering 413 above it).
    struct SmallPushes: ForwardingTransport {
        let inner: any SyncTransport
        let limit: Int
        func push(_ request: PushRequest) async throws -> PushResponse {
            guard request.mutations.count <= limit else { throw SyncProblem(.tooLarge(limit: limit)) }
            return try await inner.push(request)
        }
    }

    @Test("a push over the size limit is split")
    func oversizedPush() async throws {
        let world = try await World()
        let a = try await world.device(), b = try await world.device()
        for index in 0..<40 { _ = try a.database.timers.create(name: "Timer \(index)", durationInSeconds: 60) }
        a.engine.transport = SmallPushes(inner: a.engine.transport, limit: 7)
        _ = try await a.engine.sync()
        _ = try await b.engine.sync()
        #expect(try b.database.timers.all().count == 40)
        try await world.expectConverged([a, b])
    }

    @Test("a clock more than five minutes ahead is refused by the server and the changes re-stamped")
    func clockSkew() async throws {
        let world = try await World()
        let fast = try await world.device(skew: 15 * 60), b = try await world.device()
        _ = try fast.database.timers.create(name: "From the future", durationInSeconds: 60)
        let summary = try await fast.engine.sync()
        #expect(summary.notes.contains { $0.contains("clock") })
        // Later edits from the fast machine still go through (its clock now runs on the server's).
        world.advance(60, [fast, b])
        _ = try b.database.timers.create(name: "From now", durationInSeconds: 60)
        _ = try await b.engine.sync()
        _ = try fast.database.timers.create(name: "Fast again", durationInSeconds: 60)
        _ = try await fast.engine.sync()
        _ = try await b.engine.sync()
        #expect(try b.database.timers.all().count == 3)
        try await world.expectConverged([fast, b])
    }

    @Test("the server refuses gaps, replays nothing twice, and checks every mutation")
    func serverRules() async throws {
        let world = try await World()
        let a = try await world.device()
        let token = (a.engine.transport as? SimulatedTransport)?.token ?? ""
        let caller = try await world.service.authenticate(token: token)
        let device = try #require(try a.database.sync.device())
        let clock = HLC(millis: Self.startMillis, counter: 0, node: device.node)
        let put = SyncMutation(
            id: 1, hlc: clock, entity: "focusPreferences", entityId: "focus", op: .put, fields: ["focusMs": .int(1_500_000)])
        let first = try await world.service.push(caller, PushRequest(deviceId: device.deviceId, mutations: [put]))
        #expect(first.lastMutationId == 1)
        let again = try await world.service.push(caller, PushRequest(deviceId: device.deviceId, mutations: [put]))
        #expect(again.cursor == first.cursor)
        var gap = put
        gap.id = 5
        await #expect(throws: SyncServerError.push(.gap(expected: 2, got: 5, lastMutationId: 1))) {
            _ = try await world.service.push(caller, PushRequest(deviceId: device.deviceId, mutations: [gap]))
        }
        var other = put
        other.fields = ["focusMs": .int(60_000)]
        await #expect(throws: SyncServerError.push(.deviceCloned(lastMutationId: 1))) {
            _ = try await world.service.push(caller, PushRequest(deviceId: device.deviceId, mutations: [other]))
        }
        let cases: [(SyncFields, String)] = [
            (["nope": .int(1)], "fields.nope"), (["focusMs": .text("x")], "fields.focusMs"), (["focusMs": .null], "fields.focusMs"),
        ]
        for (fields, field) in cases {
            let bad = SyncMutation(id: 2, hlc: clock, entity: "focusPreferences", entityId: "focus", op: .put, fields: fields)
            await #expect(throws: SyncServerError.push(.invalid(mutationId: 2, field: field, message: ""))) {
                do {
                    _ = try await world.service.push(caller, PushRequest(deviceId: device.deviceId, mutations: [bad]))
                } catch SyncServerError.push(.invalid(let id, let f, _)) {
                    throw SyncServerError.push(.invalid(mutationId: id, field: f, message: ""))
                }
            }
        }
        let future = SyncMutation(
            id: 2, hlc: HLC(millis: Self.startMillis + 10 * 60_000, counter: 0, node: device.node), entity: "focusPreferences",
            entityId: "focus", op: .put, fields: ["focusMs": .int(60_000)])
        await #expect(throws: SyncServerError.push(.clockDrift(mutationId: 2, serverTime: Self.start))) {
            _ = try await world.service.push(caller, PushRequest(deviceId: device.deviceId, mutations: [future]))
        }
        await #expect(throws: SyncServerError.push(.unsupportedSchema(2))) {
            _ = try await world.service.push(caller, PushRequest(deviceId: device.deviceId, schemaVersion: 2, mutations: [put]))
        }
        await #expect(throws: SyncServerError.unauthorized) { _ = try await world.service.authenticate(token: token + "x") }
        await #expect(throws: SyncServerError.badCredentials) {
            _ = try await world.service.register(DeviceRegistration(user: "ada", password: "wrong-password", deviceName: "x"))
        }
    }
}
