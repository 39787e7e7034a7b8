import Foundation
import GroveCore
import GroveSimulation
import GroveStore
import GroveSync
import Testing

/// A sync server restored from a backup older than some of its devices: each takes itself back with
/// the token it holds (a MAC under the server's own key, which the backup keeps), with nothing to
/// type, and sends again everything the server lost. Nothing else can take a device back.
@Suite("Sync: a server restored from a backup")
struct ServerRestoreTests {
    typealias World = SyncFaultTests.World

    /// A world with `a` synced, a backup taken, then `late` registered and synced after it; `between`
    /// runs after the backup, before `late` registers (another account made, say).
    struct Restored {
        let world: World
        let a: SimulatedDevice
        let late: SimulatedDevice
        let path: String
        let backup: String

        init(between: (World) async throws -> Void = { _ in }) async throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("grove-restore-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            path = directory + "/server.sqlite"
            backup = directory + "/backup.sqlite"
            world = try await World(path: path)
            a = try await world.device()
            _ = try await a.engine.sync()
            try await world.store.backup(to: backup)
            try await between(world)
            late = try await world.device()
            _ = try late.database.timers.create(name: "Made on the late device", durationInSeconds: 60)
            _ = try await late.engine.sync()
        }

        /// The server's file replaced by the backup, and the server started on it.
        func restore() throws {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            try FileManager.default.copyItem(atPath: backup, toPath: path)
            try world.reopen(path: path)
            world.reconnect(a)
            world.reconnect(late)
        }
    }

    @Test("a device registered after the backup is taken back on its token and sends everything the server lost")
    func deviceTakenBack() async throws {
        let restored = try await Restored()
        let (world, a, late) = (restored.world, restored.a, restored.late)
        try restored.restore()
        _ = try late.database.timers.create(name: "Made after the restore", durationInSeconds: 60)
        let summary = try await late.engine.sync()
        #expect(summary.notes.contains { $0.contains("took the device back") }, "\(summary.notes)")
        _ = try await a.engine.sync()
        #expect(Set(try a.database.timers.all().map(\.name)) == ["Made on the late device", "Made after the restore"])
        try await world.expectConverged([a, late])
        // The owner sees which device came back this way (one revoked after the backup would too).
        let caller = try await world.service.authenticate(token: try #require((a.engine.transport as? SimulatedTransport)?.token))
        let devices = try await world.service.devices(caller)
        #expect(devices.filter { $0.reclaimedAt != nil }.map(\.deviceId) == [try #require(try late.database.sync.device()).deviceId])
        // Asked again (an answer lost on the way), the server answers the same and adds nothing.
        let token = try #require((late.engine.transport as? SimulatedTransport)?.token)
        let device = try #require(try late.database.sync.device())
        try await world.service.reclaim(token: token, DeviceReclaim(deviceId: device.deviceId, user: "ada", deviceName: "again"))
        #expect(try await world.service.devices(caller).count == devices.count)
    }

    @Test("a token the server's key did not make, or made for another device, is not taken back; logging in again is")
    func forgedTokensRefused() async throws {
        let restored = try await Restored()
        let (world, a, late) = (restored.world, restored.a, restored.late)
        try restored.restore()
        let token = try #require((late.engine.transport as? SimulatedTransport)?.token)
        let device = try #require(try late.database.sync.device())
        // Another device's id with this token, and this device's id with a token of the right form only.
        await #expect(throws: SyncServerError.unknownDevice) {
            try await world.service.reclaim(token: token, DeviceReclaim(deviceId: UUID(), user: "ada", deviceName: "thief"))
        }
        let forged = String(token.dropLast(64)) + String(repeating: "0", count: 64)
        await #expect(throws: SyncServerError.unknownDevice) {
            try await world.service.reclaim(token: forged, DeviceReclaim(deviceId: device.deviceId, user: "ada", deviceName: "thief"))
        }
        late.engine.transport = SimulatedTransport(service: world.service, token: forged, network: world.network)
        _ = try late.database.timers.create(name: "Made after the restore", durationInSeconds: 60)
        do {
            _ = try await late.engine.sync()
            Issue.record("the restored server took a token its key never made")
        } catch let problem as SyncProblem {
            #expect(problem.status == 401 && problem.slug == "unknown-device", "\(problem)")
        }
        // `grove sync login` again: a new device that keeps and sends everything the store has.
        let credentials = try await world.service.register(
            DeviceRegistration(user: "ada", password: "password1", deviceName: "late, again"))
        try late.database.sync.restart(deviceId: credentials.deviceId, lastMutationId: 0)
        late.engine.transport = SimulatedTransport(service: world.service, token: credentials.token, network: world.network)
        _ = try await late.engine.sync()
        _ = try await a.engine.sync()
        #expect(Set(try a.database.timers.all().map(\.name)) == ["Made on the late device", "Made after the restore"])
        try await world.expectConverged([a, late])
    }

    @Test("an account made again under the same name after a restore never receives the old account's device")
    func remadeAccountRefused() async throws {
        let restored = try await Restored { world in
            world.serverClock.advance(by: 60)
            _ = try await world.service.addUser(name: "bob", password: "password1")
        }
        let world = restored.world
        let credentials = try await world.service.register(DeviceRegistration(user: "bob", password: "password1", deviceName: "bob's"))
        try restored.restore()
        // The backup has no bob: someone makes "bob" again (the same row id, a later creation time).
        world.serverClock.advance(by: 60)
        _ = try await world.service.addUser(name: "bob", password: "another1")
        await #expect(throws: SyncServerError.unknownDevice) {
            try await world.service.reclaim(
                token: credentials.token, DeviceReclaim(deviceId: credentials.deviceId, user: "bob", deviceName: "bob's"))
        }
    }

    @Test("a disabled account's device is told the account is disabled, not to log in")
    func disabledAccount() async throws {
        let restored = try await Restored()
        let (world, late) = (restored.world, restored.late)
        try restored.restore()
        #expect(try await world.store.setUser(named: "ada", disabled: true))
        do {
            _ = try await late.engine.sync()
            Issue.record("a disabled account's device was taken back")
        } catch let problem as SyncProblem {
            #expect(problem.slug == "account-disabled", "\(problem)")
        }
    }

    @Test("a server restored from before a passphrase change is caught by every device that saw the change, until it is set again")
    func keysFromBeforeAChange() async throws {
        typealias Keys = EncryptedSyncTests
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("grove-restore-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let (path, backup) = (directory + "/server.sqlite", directory + "/backup.sqlite")
        let world = try await World(path: path)
        let a = try await world.device(), b = try await world.device()
        let (key, envelope, _) = try await Keys.encrypt(world, a)
        Keys.hold(key, b)
        _ = try await b.engine.sync()
        #expect(try b.database.sync.status()?.device.keysBehind == nil)
        try await world.store.backup(to: backup)
        // The passphrase changes (it leaked, say); both devices sync and see the new envelope.
        world.advance(60, [a, b])
        let caller = try await world.service.authenticate(token: try Keys.token(a))
        let changed = try AccountKeys.rewrap(
            envelope, key: key, passphrase: "a new passphrase entirely", device: "d1", now: world.serverClock.now, logN: Keys.logN)
        try await world.service.setKeys(caller, KeyEnvelopeChange(envelope: changed, expectedKeyId: key.keyId))
        let kept = try #require(try await world.service.keys(caller).keptAt)
        #expect(kept > envelope.changedAt)
        // Past the engines' reconcile interval, when each compares its view with the server's.
        let interval = SyncEngine.reconcileInterval + 1
        world.advance(interval, [a, b])
        for device in [a, b] { #expect(try await device.engine.sync().notes.isEmpty) }
        // The server's file goes back to the backup: the old passphrase opens the account again.
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        try FileManager.default.copyItem(atPath: backup, toPath: path)
        try world.reopen(path: path)
        for device in [a, b] {
            device.engine.transport = SealingTransport(
                inner: SimulatedTransport(service: world.service, token: try Keys.token(device), network: world.network), key: key)
        }
        world.advance(interval, [a, b])
        let timer = try b.database.timers.create(name: "Made after the restore", durationInSeconds: 60)
        let summary = try await b.engine.sync()
        #expect(summary.notes.contains(KeysBehind(seen: kept).description), "\(summary.notes)")
        #expect(try b.database.sync.status()?.device.keysBehind == kept)
        // Nothing else stops: the data still syncs, and the warning stays until the keys are set again.
        #expect(try await a.engine.sync().notes.contains(KeysBehind(seen: kept).description))
        #expect(try a.database.timers.all().contains { $0.id == timer.id })
        #expect(try a.database.sync.status()?.device.keysBehind == kept)
        let restoredCaller = try await world.service.authenticate(token: try Keys.token(a))
        let stale = try await world.service.keys(restoredCaller)
        #expect(try AccountKeys.unlock(stale, passphrase: Keys.passphrase) == key)
        let again = try AccountKeys.rewrap(
            stale, key: key, passphrase: "a new passphrase entirely", device: "d1", now: world.serverClock.now, logN: Keys.logN)
        try await world.service.setKeys(restoredCaller, KeyEnvelopeChange(envelope: again, expectedKeyId: key.keyId))
        world.advance(interval, [a, b])
        for device in [a, b] {
            #expect(try await device.engine.sync().notes.isEmpty)
            #expect(try device.database.sync.status()?.device.keysBehind == nil)
        }
    }
}
