import Foundation
import GroveCore
import GroveSimulation
import GroveStore
import GroveSync
import Testing

/// A replaced key (`grove sync new-key`, after a device is lost): the server refuses the old key from
/// then on, what it sealed still opens on every device, and the others ask for the passphrase once
/// without losing what they made meanwhile.
@Suite("Sync: a replaced key")
struct KeyReplacementTests {
    typealias World = SyncFaultTests.World
    typealias Keys = EncryptedSyncTests

    /// The account's key replaced from `device` (what `SyncConnection.replaceKey` sends), proven by
    /// the account's login.
    static func replace(_ world: World, _ device: SimulatedDevice, _ key: DataKey) async throws -> (DataKey, KeyEnvelope, RecoveryCode) {
        let made = try AccountKeys.replace(
            key, passphrase: Keys.passphrase, device: device.name, now: world.serverClock.now, logN: Keys.logN)
        let caller = try await world.service.authenticate(token: try Keys.token(device))
        try await world.service.setKeys(caller, KeyEnvelopeChange(envelope: made.envelope, expectedKeyId: key.keyId, proof: "password1"))
        Keys.hold(made.key, device)
        return made
    }

    @Test("a replaced key seals nothing more, what it sealed still opens, and the other device asks once and loses nothing")
    func replacedKey() async throws {
        let world = try await World()
        let a = try await world.device(), b = try await world.device()
        let (old, envelope, oldRecovery) = try await Keys.encrypt(world, a)
        try Keys.unlock(try AccountKeys.unlock(envelope, passphrase: Keys.passphrase), b)
        let essay = try a.database.timers.create(name: "Essay", durationInSeconds: 600, todos: ["outline"])
        _ = try await a.engine.sync()
        _ = try await b.engine.sync()
        world.advance(60, [a, b])
        let beforeReplacement = world.serverClock.now
        world.advance(60, [a, b])
        // b is offline and makes something; meanwhile a replaces the key (b was lost, then found).
        let offline = try b.database.timers.create(name: "Made offline on b", durationInSeconds: 60)
        let caller = try await world.service.authenticate(token: try Keys.token(a))
        let bare = try AccountKeys.replace(old, passphrase: Keys.passphrase, device: "d1", now: world.serverClock.now, logN: Keys.logN)
        // A device token alone replaces nothing, and a new key must name the key it replaces.
        await #expect(throws: SyncServerError.self) {
            try await world.service.setKeys(caller, KeyEnvelopeChange(envelope: bare.envelope, expectedKeyId: old.keyId))
        }
        var unnamed = bare.envelope
        unnamed.retired = nil
        await #expect(throws: SyncServerError.invalid(field: "envelope.retired", message: Self.keepsMessage)) {
            try await world.service.setKeys(caller, KeyEnvelopeChange(envelope: unnamed, expectedKeyId: old.keyId, proof: "password1"))
        }
        let (new, replaced, recovery) = try await Self.replace(world, a, old)
        #expect(new.keyId != old.keyId && new.retired.map(\.keyId) == [old.keyId])
        #expect(new.idKeyBytes == old.idKeyBytes, "a replaced key renames no id")
        _ = try a.database.timers.update(id: essay.id, name: "Essay, after the new key")
        _ = try await a.engine.sync()

        // The server refuses a box under the old key, whole.
        let last = try await world.service.status(caller).lastMutationId
        let clock = HLC(millis: world.serverClock.now.groveMillis, counter: 0, node: HLC.node(for: caller.device.id))
        let stale = try Sealer(key: old).seal(
            SyncMutation(id: last + 1, hlc: clock, entity: "theme", entityId: UUID().uuidString, op: .put, fields: ["name": .text("x")]))
        await #expect(throws: SyncServerError.push(.wrongKey(mutationId: last + 1, keyId: old.keyId, current: new.keyId))) {
            _ = try await world.service.push(caller, PushRequest(deviceId: caller.device.id, mutations: [stale]))
        }
        // b, still holding the old key, stops before it sends anything, and says why.
        let head = try await world.store.head(userId: world.userId).head
        let pending = try b.database.sync.pendingCount()
        await #expect(throws: AccountKeyError.otherKey(held: old.keyId, named: new.keyId)) { _ = try await b.engine.sync() }
        #expect(try await world.store.head(userId: world.userId).head == head)
        #expect(try b.database.sync.pendingCount() == pending)
        let status = try #require(try b.database.sync.status())
        #expect(status.device.serverKeyId == new.keyId && status.keyReplaced, "\(status.device)")

        // Asked once for the passphrase: b holds the new key and the old one, and what it made goes out.
        let stored = try await world.service.keys(caller)
        let opened = try AccountKeys.unlock(stored, passphrase: Keys.passphrase)
        #expect(opened == new && opened.retired == [old])
        try Keys.unlock(opened, b)
        _ = try await b.engine.sync()
        _ = try await a.engine.sync()
        #expect(try a.database.timers.all().contains { $0.id == offline.id })
        #expect(try b.database.timers.all().first { $0.id == essay.id }?.name == "Essay, after the new key")
        #expect(try a.database.sync.snapshot() == b.database.sync.snapshot())

        // A new device opens the whole history (boxes under both keys), and a restore point from before.
        let c = try await world.device()
        try Keys.unlock(try AccountKeys.unlock(stored, recovery: recovery), c)
        _ = try await c.engine.sync()
        #expect(try c.database.sync.snapshot() == a.database.sync.snapshot())
        let sealing = try #require(c.engine.transport as? SealingTransport)
        let point = try await sealing.snapshot(asOf: beforeReplacement, after: nil, limit: 500)
        #expect(sealing.takeRefused().isEmpty)
        #expect(point.changes.contains { $0.entityId == essay.id.uuidString && $0.fields["name"] == .text("Essay") })

        // The old recovery code opens nothing now; a passphrase change keeps the replaced key, and an
        // envelope that drops it is refused.
        #expect(throws: AccountKeyError.wrongRecoveryCode) { _ = try AccountKeys.unlock(stored, recovery: oldRecovery) }
        var dropped = try AccountKeys.rewrap(
            stored, key: new, passphrase: "a new passphrase entirely", device: "d1", now: world.serverClock.now, logN: Keys.logN)
        #expect(dropped.retired == replaced.retired)
        dropped.retired = nil
        await #expect(throws: SyncServerError.invalid(field: "envelope.retired", message: Self.keepsMessage)) {
            try await world.service.setKeys(caller, KeyEnvelopeChange(envelope: dropped, expectedKeyId: new.keyId))
        }
    }

    @Test("a server restored from before a new key: no device goes back to the replaced key, and a new key replaces it again")
    func restoredFromBeforeANewKey() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("grove-renewed-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (path, backup) = (directory + "/server.sqlite", directory + "/backup.sqlite")
        let world = try await World(path: path)
        let a = try await world.device(), b = try await world.device()
        let (old, envelope, _) = try await Keys.encrypt(world, a)
        try Keys.unlock(try AccountKeys.unlock(envelope, passphrase: Keys.passphrase), b)
        _ = try await b.engine.sync()
        try await world.store.backup(to: backup)
        world.advance(60, [a, b])
        let (new, _, _) = try await Self.replace(world, a, old)
        let caller = try await world.service.authenticate(token: try Keys.token(a))
        let renewed = try AccountKeys.unlock(try await world.service.keys(caller), passphrase: Keys.passphrase)
        try Keys.unlock(renewed, b)
        _ = try await b.engine.sync()
        // The server's file goes back to the backup: it holds the old key again.
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        try FileManager.default.copyItem(atPath: backup, toPath: path)
        try world.reopen(path: path)
        for (device, key) in [(a, new), (b, renewed)] {
            device.engine.transport = SealingTransport(
                inner: SimulatedTransport(service: world.service, token: try Keys.token(device), network: world.network), key: key)
        }
        world.advance(SyncEngine.reconcileInterval + 1, [a, b])
        let made = try b.database.timers.create(name: "Made after the restore", durationInSeconds: 60)
        let head = try await world.store.head(userId: world.userId).head
        await #expect(throws: AccountKeyError.retiredKeyOnServer(named: old.keyId)) { _ = try await b.engine.sync() }
        #expect(try await world.store.head(userId: world.userId).head == head, "nothing sealed with the replaced key")
        #expect(try b.database.sync.status()?.serverKeyRetired == true)
        // A new key from b (what `SyncConnection.replaceKey` sends then): the server's is among those it replaced.
        let restored = try await world.service.authenticate(token: try Keys.token(b))
        #expect(try await world.service.keys(restored).keyId == old.keyId)
        let again = try AccountKeys.replace(renewed, passphrase: Keys.passphrase, device: "d2", now: world.serverClock.now, logN: Keys.logN)
        #expect(again.key.retired.map(\.keyId) == [new.keyId, old.keyId])
        try await world.service.setKeys(
            restored, KeyEnvelopeChange(envelope: again.envelope, expectedKeyId: old.keyId, proof: "password1"))
        try Keys.unlock(again.key, b)
        _ = try await b.engine.sync()
        // a holds `new`, which the latest key replaced too: it is asked for the passphrase once.
        await #expect(throws: AccountKeyError.otherKey(held: new.keyId, named: again.key.keyId)) { _ = try await a.engine.sync() }
        try Keys.unlock(try AccountKeys.unlock(try await world.service.keys(restored), passphrase: Keys.passphrase), a)
        for device in [a, b, a] { _ = try await device.engine.sync() }
        #expect(try a.database.timers.all().contains { $0.id == made.id })
        #expect(try a.database.sync.snapshot() == b.database.sync.snapshot())
    }

    static let keepsMessage = "An envelope keeps every key the account replaced, and a new key names the key it replaces"

    @Test("a key file keeps the replaced keys; a retired key's box moved into another envelope does not open")
    func keyFileAndKeyring() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("grove-keys-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = DataKey.random()
        let second = try DataKey.replacing(first), third = try DataKey.replacing(second)
        #expect(third.retired.map(\.keyId) == [second.keyId, first.keyId])
        try DeviceKey.write(third, forStore: directory + "/grove.sqlite")
        let read = try #require(DeviceKey.read(forStore: directory + "/grove.sqlite"))
        #expect(read == third && read.retired == third.retired && read.idKeyBytes == first.idKeyBytes)
        // Opened with the envelope of another account, the keyring refuses by name.
        let (made, _) = try AccountKeys.envelope(for: third, passphrase: Keys.passphrase, device: "d1", now: Date(), logN: Keys.logN)
        let (other, _) = try AccountKeys.envelope(
            for: try DataKey.replacing(DataKey.random()), passphrase: Keys.passphrase, device: "d1", now: Date(), logN: Keys.logN)
        var planted = other
        planted.retired = made.retired
        #expect(throws: AccountKeyError.self) { _ = try AccountKeys.unlock(planted, passphrase: Keys.passphrase) }
        #expect(try AccountKeys.unlock(made, passphrase: Keys.passphrase).retired == third.retired)
        // Boxes under each key open with the newest.
        let clock = try #require(HLC("2026-11-24T09:00:00.000Z-0000-00000000000000aa"))
        for key in [first, second, third] {
            let put = try Sealer(key: key).seal(
                SyncMutation(id: 1, hlc: clock, entity: "timer", entityId: "A", op: .put, fields: ["name": .text("Essay")]))
            let change = SyncChange(
                seq: 1, entity: "timer", entityId: "A", state: SyncState(fields: put.fields, clocks: ["name": clock]), deleted: false)
            #expect(try Sealer(key: read).open(change).fields["name"] == .text("Essay"))
        }
    }
}
