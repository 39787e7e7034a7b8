import Foundation
import GroveCore
import GroveSimulation
import GroveStore
import GroveSync
import Testing

/// End-to-end encryption (SYNC.md "Private sync"): the server orders sealed field groups it cannot
/// read, refuses plain values and other keys, and every device reaches the same rows.
@Suite("Sync: end-to-end encryption")
struct EncryptedSyncTests {
    typealias World = SyncFaultTests.World
    /// scrypt's cheapest allowed cost: the tests derive many keys.
    static let logN = 14
    static let passphrase = "correct horse battery"

    /// Encrypts the account from `device` as `grove sync encrypt` does (its rows sent again, sealed).
    static func encrypt(_ world: World, _ device: SimulatedDevice) async throws -> (DataKey, KeyEnvelope, RecoveryCode) {
        _ = try await device.engine.sync()
        let caller = try await world.service.authenticate(token: try token(device))
        let made = try AccountKeys.create(passphrase: passphrase, device: device.name, now: world.serverClock.now, logN: logN)
        try await world.service.setKeys(caller, KeyEnvelopeChange(envelope: made.envelope, expectedKeyId: nil))
        hold(made.key, device)
        try device.database.sync.adoptIDKey(made.key.idKeyBytes)
        try device.database.sync.resendEverything()
        _ = try await device.engine.sync()
        return made
    }

    static func token(_ device: SimulatedDevice) throws -> String {
        let plain = (device.engine.transport as? SealingTransport)?.inner ?? device.engine.transport
        return try #require(plain as? SimulatedTransport).token
    }

    /// Gives `device` the key (the transport only: `unlock` also adopts the id key).
    static func hold(_ key: DataKey, _ device: SimulatedDevice) {
        let plain = (device.engine.transport as? SealingTransport)?.inner ?? device.engine.transport
        device.engine.transport = SealingTransport(inner: plain, key: key)
    }

    /// `grove sync unlock` on `device`.
    static func unlock(_ key: DataKey, _ device: SimulatedDevice) throws {
        hold(key, device)
        try device.database.sync.adoptIDKey(key.idKeyBytes, keyId: key.keyId)
    }

    /// Every stored state of the account holds sealed groups only.
    static func expectSealed(_ world: World, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        for (key, state) in try await world.store.entities(userId: world.userId) {
            let plain = state.fields.keys.filter { SealedValue.group(ofField: $0) == nil }
            #expect(plain.isEmpty, "\(key.entity) \(key.id) keeps plain \(plain.sorted())", sourceLocation: sourceLocation)
        }
    }

    @Test("an account encrypted in place syncs sealed values to a device that unlocks, and the server keeps no plain one")
    func encryptInPlace() async throws {
        let world = try await World()
        let a = try await world.device(), b = try await world.device()
        let essay = try a.database.timers.create(name: "Essay", durationInSeconds: 600, todos: ["outline"])
        _ = try await a.engine.sync()
        _ = try await b.engine.sync()
        let (key, envelope, _) = try await Self.encrypt(world, a)
        try await Self.expectSealed(world)
        // b has no key: it says so, and sends nothing (its edit waits).
        _ = try b.database.timers.update(id: essay.id, name: "Essay, second draft")
        let pending = try b.database.sync.pendingCount()
        await #expect(throws: AccountKeyError.locked) { _ = try await b.engine.sync() }
        #expect(try b.database.sync.pendingCount() == pending)
        try await Self.expectSealed(world)
        // Unlocked with the passphrase: the edit goes out sealed and reaches a.
        Self.hold(try AccountKeys.unlock(envelope, passphrase: Self.passphrase), b)
        #expect((b.engine.transport as? SealingTransport)?.sealer.key == key)
        _ = try await b.engine.sync()
        _ = try await a.engine.sync()
        #expect(try a.database.timers.all().first { $0.id == essay.id }?.name == "Essay, second draft")
        try await Self.expectSealed(world)
        #expect(try a.database.sync.snapshot() == b.database.sync.snapshot())
    }

    @Test("an unlock seals only the rows the server still keeps in plain, not every row the device holds")
    func unlockSealsOnlyWhatIsPlain() async throws {
        let world = try await World()
        let a = try await world.device(), b = try await world.device()
        for index in 1...20 { _ = try b.database.timers.create(name: "Timer \(index)", durationInSeconds: 60) }
        _ = try await b.engine.sync()
        // a encrypts from what it has seen; b's later timer reaches the server in plain just before the
        // key does (a pulls it only after its own sealed push).
        _ = try await a.engine.sync()
        let late = try b.database.timers.create(name: "Sent in plain at the last moment", durationInSeconds: 60)
        _ = try await b.engine.sync()
        let caller = try await world.service.authenticate(token: try Self.token(a))
        let made = try AccountKeys.create(passphrase: Self.passphrase, device: a.name, now: world.serverClock.now, logN: Self.logN)
        try await world.service.setKeys(caller, KeyEnvelopeChange(envelope: made.envelope, expectedKeyId: nil))
        Self.hold(made.key, a)
        try a.database.sync.adoptIDKey(made.key.idKeyBytes)
        try a.database.sync.resendEverything()
        _ = try await a.engine.sync()

        let plain = try await world.service.plainRows(try await world.service.authenticate(token: try Self.token(b)))
        #expect(plain.complete)
        #expect(plain.rows == [EntityKey(entity: SyncEntity.timer.name, id: late.id.uuidString)], "\(plain.rows)")
        // b unlocks as `grove sync unlock` does: one row goes out again, not twenty-one.
        try Self.unlock(made.key, b)
        try b.database.sync.resend(plain.rows)
        #expect(try b.database.sync.pendingCount() == 1)
        _ = try await b.engine.sync()
        try await Self.expectSealed(world)
        #expect(try await world.service.plainRows(caller).rows.isEmpty)
        _ = try await a.engine.sync()
        #expect(try a.database.timers.all().count == 21)
        #expect(try a.database.sync.snapshot() == b.database.sync.snapshot())
        // A plain account has nothing of the kind to say.
        let plainWorld = try await World()
        let c = try await plainWorld.device()
        await #expect(throws: SyncServerError.notEncrypted) {
            _ = try await plainWorld.service.plainRows(try await plainWorld.service.authenticate(token: try Self.token(c)))
        }
    }

    @Test("a device holding another key pushes nothing and names both keys; the wrong passphrase opens nothing")
    func wrongKey() async throws {
        let world = try await World()
        let a = try await world.device(), b = try await world.device()
        let (key, envelope, _) = try await Self.encrypt(world, a)
        #expect(throws: AccountKeyError.wrongPassphrase) { _ = try AccountKeys.unlock(envelope, passphrase: "not the passphrase") }
        let other = DataKey.random()
        Self.hold(other, b)
        _ = try b.database.timers.create(name: "Lost?", durationInSeconds: 60)
        let head = try await world.store.head(userId: world.userId).head
        await #expect(throws: AccountKeyError.otherKey(held: other.keyId, named: key.keyId)) { _ = try await b.engine.sync() }
        #expect(try await world.store.head(userId: world.userId).head == head)
        // With the right key the waiting change goes out: nothing was lost.
        Self.hold(key, b)
        _ = try await b.engine.sync()
        _ = try await a.engine.sync()
        #expect(try a.database.timers.all().map(\.name).contains("Lost?"))
    }

    @Test("the server refuses plain values and boxes under another key on an encrypted account, whole")
    func serverRefuses() async throws {
        let world = try await World()
        let a = try await world.device()
        let (key, _, _) = try await Self.encrypt(world, a)
        let caller = try await world.service.authenticate(token: try Self.token(a))
        let last = try await world.service.status(caller).lastMutationId
        let clock = HLC(millis: world.serverClock.now.groveMillis, counter: 0, node: HLC.node(for: caller.device.id))
        let plain = SyncMutation(
            id: last + 1, hlc: clock, entity: "timer", entityId: UUID().uuidString, op: .put, fields: ["name": .text("In plain")])
        await #expect(throws: SyncServerError.push(.notSealed(mutationId: last + 1, field: "name"))) {
            _ = try await world.service.push(caller, PushRequest(deviceId: caller.device.id, mutations: [plain]))
        }
        let foreign = try Sealer(key: DataKey.random()).seal(
            SyncMutation(id: last + 1, hlc: clock, entity: "theme", entityId: UUID().uuidString, op: .put, fields: ["name": .text("x")]))
        let refused = try #require(SealedValue.keyId(of: foreign.fields["@name"]?.text ?? ""))
        await #expect(throws: SyncServerError.push(.wrongKey(mutationId: last + 1, keyId: refused, current: key.keyId))) {
            _ = try await world.service.push(caller, PushRequest(deviceId: caller.device.id, mutations: [foreign]))
        }
        try await Self.expectSealed(world)
        // A second encryption, or a re-wrap of another key, is refused by name.
        let again = try AccountKeys.create(passphrase: Self.passphrase, device: "x", now: world.serverClock.now, logN: Self.logN)
        await #expect(throws: SyncServerError.keyConflict(current: key.keyId)) {
            try await world.service.setKeys(caller, KeyEnvelopeChange(envelope: again.envelope, expectedKeyId: nil))
        }
    }

    @Test("a box moved to another record, group or clock does not open, and is set aside without blocking the rest")
    func movedBox() async throws {
        let key = DataKey.random(), sealer = Sealer(key: key)
        let clock = try #require(HLC("2026-11-24T09:00:00.000Z-0000-00000000000000aa"))
        let put = SyncMutation(id: 1, hlc: clock, entity: "timer", entityId: "A", op: .put, fields: ["name": .text("Essay")])
        let sealed = try sealer.seal(put)
        let state = SyncState(fields: sealed.fields, clocks: ["name": clock])
        #expect(try sealer.open(SyncChange(seq: 1, entity: "timer", entityId: "A", state: state, deleted: false)).fields == put.fields)
        for (entity, id, clocks) in [
            ("timer", "B", ["name": clock]), ("theme", "A", ["name": clock]),
            ("timer", "A", ["name": clock.tick(now: Date(timeIntervalSince1970: 1_900_000_000))]),
        ] {
            let moved = SyncChange(
                seq: 2, entity: entity, entityId: id, state: SyncState(fields: sealed.fields, clocks: clocks), deleted: false)
            #expect(throws: AccountKeyError.self) { _ = try sealer.open(moved) }
        }
        // Into another group of the same record.
        let renamed = SyncState(fields: ["@durationInSeconds": sealed.fields["@name"] ?? .null], clocks: ["durationInSeconds": clock])
        #expect(throws: AccountKeyError.self) {
            _ = try sealer.open(SyncChange(seq: 3, entity: "timer", entityId: "A", state: renamed, deleted: false))
        }
    }

    @Test("a passphrase changed on one device while another syncs: nothing lost, the old one opens nothing, the code still does")
    func passphraseChange() async throws {
        let world = try await World()
        let a = try await world.device(), b = try await world.device()
        let (key, envelope, recovery) = try await Self.encrypt(world, a)
        Self.hold(try AccountKeys.unlock(envelope, passphrase: Self.passphrase), b)
        _ = try await b.engine.sync()
        let caller = try await world.service.authenticate(token: try Self.token(a))
        let changed = try AccountKeys.rewrap(
            envelope, key: key, passphrase: "a new passphrase entirely", device: "d1", now: world.serverClock.now, logN: Self.logN)
        try await world.service.setKeys(caller, KeyEnvelopeChange(envelope: changed, expectedKeyId: key.keyId))
        // b made a change meanwhile and syncs with the key it holds: it goes through.
        let timer = try b.database.timers.create(name: "Made during the change", durationInSeconds: 60)
        _ = try await b.engine.sync()
        _ = try await a.engine.sync()
        #expect(try a.database.timers.all().contains { $0.id == timer.id })
        let stored = try await world.service.keys(caller)
        #expect(throws: AccountKeyError.wrongPassphrase) { _ = try AccountKeys.unlock(stored, passphrase: Self.passphrase) }
        #expect(try AccountKeys.unlock(stored, passphrase: "a new passphrase entirely") == key)
        // Forgotten again: the recovery code opens the same key.
        #expect(try AccountKeys.unlock(stored, recovery: try RecoveryCode(words: recovery.description.uppercased())) == key)
        #expect(throws: InvalidField.self) { _ = try RecoveryCode(words: recovery.words.dropLast().joined(separator: " ")) }
        var swapped = recovery.words
        swapped.swapAt(0, 1)
        if swapped != recovery.words { #expect(throws: InvalidField.self) { _ = try RecoveryCode(words: swapped.joined(separator: " ")) } }
        #expect(throws: AccountKeyError.weakPassphrase(minimum: AccountKeys.minimumPassphrase)) {
            _ = try AccountKeys.rewrap(stored, key: key, passphrase: "short", device: "d1", now: Date(), logN: Self.logN)
        }
    }

    @Test("a finished session beats a later pause from a device that had not heard of it, on every device")
    func terminalRuleConverges() async throws {
        let world = try await World()
        let a = try await world.device(), b = try await world.device()
        let (key, _, _) = try await Self.encrypt(world, a)
        Self.hold(key, b)
        _ = try await b.engine.sync()
        let session = try a.database.focus.start(plannedDuration: 25 * 60)
        _ = try await a.engine.sync()
        _ = try await b.engine.sync()
        world.advance(60, [a, b])
        // a gives the session up offline; b pauses it a minute later (a later clock) and syncs first:
        // the server, which orders by clock alone, holds the pause when a's abandon arrives.
        _ = try a.database.focus.abandon()
        world.advance(60, [a, b])
        _ = try b.database.focus.pause()
        _ = try await b.engine.sync()
        _ = try await a.engine.sync()
        _ = try await b.engine.sync()
        let c = try await world.device()
        Self.hold(key, c)
        _ = try await c.engine.sync()
        for device in [a, b, c] {
            #expect(try device.database.focus.session(id: session.id)?.state == .abandoned, "\(device.name)")
        }
        #expect(try a.database.sync.snapshot() == b.database.sync.snapshot())
        #expect(try a.database.sync.snapshot() == c.database.sync.snapshot())
        try await Self.expectSealed(world)
    }

    @Test("a period's intention and an imported session get keyed ids, the same on every device, with no duplicate")
    func keyedIDs() async throws {
        let world = try await World()
        let a = try await world.device(), b = try await world.device()
        let before = try a.database.intentions.set("Walk before work", scope: .day)
        let plainID = before.id
        _ = try await a.engine.sync()
        _ = try await b.engine.sync()
        let (key, _, _) = try await Self.encrypt(world, a)
        try Self.unlock(key, b)
        _ = try await b.engine.sync()
        _ = try await a.engine.sync()
        for device in [a, b] {
            let ids = try device.database.intentions.all().map(\.id)
            #expect(ids.count == 1 && ids.first != plainID, "\(device.name): \(ids)")
        }
        // Set "this week" on both devices offline: one intention, one keyed id, no period in it.
        let weekA = try a.database.intentions.set("Ship it", scope: .week)
        let weekB = try b.database.intentions.set("Ship it, really", scope: .week)
        #expect(weekA.id == weekB.id && weekA.id.uuid.8 & 0xE0 == 0xC0, "keyed (variant 110)")
        _ = try await a.engine.sync()
        _ = try await b.engine.sync()
        _ = try await a.engine.sync()
        #expect(try a.database.sync.snapshot() == b.database.sync.snapshot())
        let renamed = try #require(try a.database.intentions.all().first { $0.scope == .day }).id
        let live = try await world.store.entities(userId: world.userId)
            .filter { $0.key.entity == "intention" && !$0.value.isDeleted(.intention) }.map(\.key.id)
        #expect(Set(live) == [renamed.uuidString, weekA.id.uuidString], "the period's plain id is not a live row")
        try await Self.expectSealed(world)
    }

    @Test("one secret: the passphrase's login replaces the password, and only the passphrase or the code changes it")
    func passphraseIsTheLogin() async throws {
        let world = try await World()
        let a = try await world.device()
        let caller = try await world.service.authenticate(token: try Self.token(a))
        #expect(
            try await world.service.prelogin(PreloginRequest(user: "ada")).derivation == nil, "a plain account logs in with its password")
        let made = try AccountKeys.create(passphrase: Self.passphrase, device: "d1", now: world.serverClock.now, logN: Self.logN)
        let login = try AccountKeys.loginSecret(passphrase: Self.passphrase, made.envelope.derivation)
        try await world.service.setKeys(caller, KeyEnvelopeChange(envelope: made.envelope, expectedKeyId: nil, login: login))
        #expect(try await world.service.prelogin(PreloginRequest(user: "ada")).derivation == made.envelope.derivation)
        #expect(try await world.service.prelogin(PreloginRequest(user: "nobody")).derivation == nil)
        // The derived secret logs in; the old password and the passphrase itself do not.
        _ = try await world.service.register(DeviceRegistration(user: "ada", password: login, deviceName: "new"))
        for wrong in ["password1", Self.passphrase] {
            await #expect(throws: SyncServerError.badCredentials) {
                _ = try await world.service.register(DeviceRegistration(user: "ada", password: wrong, deviceName: "x"))
            }
        }
        // A token alone, or a wrong proof, does not change the login.
        let next = try AccountKeys.rewrap(
            made.envelope, key: made.key, passphrase: "the next passphrase", device: "d1", now: world.serverClock.now, logN: Self.logN)
        let nextLogin = try AccountKeys.loginSecret(passphrase: "the next passphrase", next.derivation)
        for proof in [nil, "gl1_not-the-current-login-secret"] {
            await #expect(throws: SyncServerError.self) {
                try await world.service.setKeys(
                    caller, KeyEnvelopeChange(envelope: next, expectedKeyId: made.key.keyId, login: nextLogin, proof: proof))
            }
        }
        // The current passphrase's login proves it; then the recovery code's proof does, the passphrase forgotten.
        try await world.service.setKeys(
            caller, KeyEnvelopeChange(envelope: next, expectedKeyId: made.key.keyId, login: nextLogin, proof: login))
        _ = try await world.service.register(DeviceRegistration(user: "ada", password: nextLogin, deviceName: "after"))
        let reset = try AccountKeys.rewrap(
            next, key: made.key, passphrase: "a reset passphrase", device: "d1", now: world.serverClock.now, logN: Self.logN)
        let resetLogin = try AccountKeys.loginSecret(passphrase: "a reset passphrase", reset.derivation)
        try await world.service.setKeys(
            caller,
            KeyEnvelopeChange(
                envelope: reset, expectedKeyId: made.key.keyId, login: resetLogin, proof: try AccountKeys.recoveryProof(made.recovery, next)
            ))
        _ = try await world.service.register(DeviceRegistration(user: "ada", password: resetLogin, deviceName: "reset"))
        #expect(try AccountKeys.unlock(try await world.service.keys(caller), passphrase: "a reset passphrase") == made.key)
    }
}
