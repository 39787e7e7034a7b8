import Foundation
import GroveCore
import GroveSimulation
import GroveStore
import GroveSync
import Testing

/// An encrypted account on the run's stores — SQLite, or two PostgreSQL instances on one database when
/// `GROVE_TEST_POSTGRES` is set: devices on both instances, a passphrase change between them, and a
/// restore point rebuilt from sealed history; the stored states hold no planted value.
@Suite("Sync: end-to-end encryption on every store")
struct EncryptedStoresTests {
    /// A service on each of the run's two instances (one clock), a new account on them, `a` linked
    /// through the first with a timer, and `b` through the second.
    static func twoInstances(_ label: String, prefix: UInt64) async throws -> (
        first: SyncService, second: SyncService, clock: TestClock, user: SyncUser, a: SimulatedDevice, b: SimulatedDevice
    ) {
        let instances = try await TestServers.instances()
        guard let one = instances.first, let two = instances.last else { throw SimulationFailure("no server") }
        let clock = TestClock(MultiUserTests.start)
        let first = SyncService(store: one.store, pokes: one.pokes, now: { clock.now }, bcryptCost: 4)
        let second = SyncService(store: two.store, pokes: two.pokes, now: { clock.now }, bcryptCost: 4)
        let name = TestServers.uniqueName(label)
        let user = try await first.addUser(name: name, password: "password1")
        let (a, _) = try await MultiUserTests.deviceWithATimer(name, on: first, prefix: prefix)
        let credentials = try await second.register(DeviceRegistration(user: name, password: "password1", deviceName: "phone"))
        let network = SimulatedNetwork(seed: prefix + 1)
        network.faulty = false
        let b = try SimulatedDevice(
            name: "b", start: MultiUserTests.start, skew: 0, idPrefix: prefix + 1, zone: TimeZone(identifier: "UTC") ?? .current,
            service: second, network: network, credentials: credentials, user: name)
        return (first, second, clock, user, a, b)
    }

    /// The account encrypted from `device` through `service`, as `grove sync encrypt` does (its rows
    /// sent again, sealed): the key made, and the device's caller on that service.
    static func encrypt(_ device: SimulatedDevice, through service: SyncService) async throws -> (
        made: (key: DataKey, envelope: KeyEnvelope, recovery: RecoveryCode), caller: SyncService.Caller
    ) {
        let caller = try await service.authenticate(token: try EncryptedSyncTests.token(device))
        let made = try AccountKeys.create(
            passphrase: EncryptedSyncTests.passphrase, device: String(device.name.prefix(100)), now: MultiUserTests.start, logN: 14)
        try await service.setKeys(caller, KeyEnvelopeChange(envelope: made.envelope, expectedKeyId: nil))
        try EncryptedSyncTests.unlock(made.key, device)
        try device.database.sync.resendEverything()
        _ = try await device.engine.sync()
        return (made, caller)
    }

    @Test("sealed across instances: plain refused, keys checked in the push, a restore point opens, no value stored")
    func acrossInstances() async throws {
        let (first, second, clock, user, a, b) = try await Self.twoInstances("sealed", prefix: 7100)
        _ = try await b.engine.sync()

        // Encrypted through the first instance; the second refuses b's plain push in its own transaction.
        let (made, caller) = try await Self.encrypt(a, through: first)
        _ = try b.database.timers.create(name: "zqplainattempt", durationInSeconds: 60)
        await #expect(throws: AccountKeyError.locked) { _ = try await b.engine.sync() }

        let planted = ["zqsealedtimer", "zqsealedtodo", "zqsealedintention"]
        let timer = try a.database.timers.create(name: planted[0], durationInSeconds: 300, todos: [planted[1]])
        try a.database.intentions.set(planted[2], scope: .day)
        _ = try await a.engine.sync()
        // Twenty minutes on: the restore point is the middle of them.
        clock.advance(by: 1200)
        for device in [a, b] { device.clock.advance(by: 1200) }
        let before = clock.now.addingTimeInterval(-600)
        // b unlocks (through the second instance) and gets everything; its waiting timer goes out sealed.
        let envelope = try await second.keys(try await second.authenticate(token: try EncryptedSyncTests.token(b)))
        try EncryptedSyncTests.unlock(try AccountKeys.unlock(envelope, passphrase: EncryptedSyncTests.passphrase), b)
        _ = try await b.engine.sync()
        _ = try await a.engine.sync()
        #expect(Set(try b.database.timers.all().map(\.name)).isSuperset(of: [planted[0], "zqplainattempt"]))
        #expect(try a.database.sync.snapshot() == b.database.sync.snapshot())
        // A rename after the restore point: the sealed history still shows the name before it.
        _ = try a.database.timers.update(id: timer.id, name: "zqrenamedlater")
        _ = try await a.engine.sync()
        let restored = try AppDatabase.inMemory()
        _ = try await RestorePoint.rebuild(from: b.engine.transport, asOf: before, into: restored)
        #expect(try restored.timers.all().map(\.name).contains(planted[0]))

        // What the stores hold: sealed groups only, none of the planted words, in rows or in history.
        let stored = try await first.store.entities(userId: user.id)
        let text = stored.values.flatMap(\.fields.values).compactMap(\.text).joined(separator: "\n")
        for word in planted + ["zqplainattempt", "zqrenamedlater"] { #expect(!text.contains(word), "\(word) is stored in plain") }
        #expect(stored.values.allSatisfy { $0.fields.keys.allSatisfy { SealedValue.group(ofField: $0) != nil } })
        let history = try await first.store.snapshot(userId: user.id, asOf: before, after: nil, limit: 2000)
        #expect(!history.isEmpty && history.allSatisfy { $0.fields.keys.allSatisfy { SealedValue.group(ofField: $0) != nil } })
    }

    @Test("a new key through one instance: the other refuses the old key in its push, and both keys' boxes open after")
    func newKeyAcrossInstances() async throws {
        let (first, second, clock, _, a, b) = try await Self.twoInstances("renewed", prefix: 7200)
        let timer = try #require(try a.database.timers.all().first)
        let (made, caller) = try await Self.encrypt(a, through: first)
        try EncryptedSyncTests.unlock(made.key, b)
        _ = try await b.engine.sync()
        clock.advance(by: 600)
        for device in [a, b] { device.clock.advance(by: 600) }
        let before = clock.now
        clock.advance(by: 60)
        for device in [a, b] { device.clock.advance(by: 60) }

        // The key replaced through the first instance; b, on the second, still holds the old one.
        let renewed = try AccountKeys.replace(
            made.key, passphrase: EncryptedSyncTests.passphrase, device: "a", now: clock.now, logN: 14)
        try await first.setKeys(caller, KeyEnvelopeChange(envelope: renewed.envelope, expectedKeyId: made.key.keyId, proof: "password1"))
        try EncryptedSyncTests.unlock(renewed.key, a)
        _ = try a.database.timers.update(id: timer.id, name: "Renamed under the new key")
        _ = try await a.engine.sync()
        let bCaller = try await second.authenticate(token: try EncryptedSyncTests.token(b))
        let last = try await second.status(bCaller).lastMutationId
        let hlc = HLC(millis: clock.now.groveMillis, counter: 0, node: HLC.node(for: bCaller.device.id))
        let stale = try Sealer(key: made.key).seal(
            SyncMutation(id: last + 1, hlc: hlc, entity: "theme", entityId: UUID().uuidString, op: .put, fields: ["name": .text("x")]))
        await #expect(throws: SyncServerError.push(.wrongKey(mutationId: last + 1, keyId: made.key.keyId, current: renewed.key.keyId))) {
            _ = try await second.push(bCaller, PushRequest(deviceId: bCaller.device.id, mutations: [stale]))
        }
        // b asked once: both keys open, and a restore point from before the new key rebuilds.
        let envelope = try await second.keys(bCaller)
        try EncryptedSyncTests.unlock(try AccountKeys.unlock(envelope, passphrase: EncryptedSyncTests.passphrase), b)
        _ = try await b.engine.sync()
        #expect(try b.database.timers.all().first { $0.id == timer.id }?.name == "Renamed under the new key")
        #expect(try a.database.sync.snapshot() == b.database.sync.snapshot())
        let restored = try AppDatabase.inMemory()
        _ = try await RestorePoint.rebuild(from: b.engine.transport, asOf: before, into: restored)
        #expect(try restored.timers.all().first { $0.id == timer.id }?.name == timer.name)
    }
}
