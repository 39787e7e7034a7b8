import Foundation
import GroveCore
import GroveSimulation
import GroveStore
import GroveSync
import Testing

/// SYNC.md "Rules learned under faults": the cases people meet (a second device, a restore, a reset,
/// a device away for months), on an in-process server.
@Suite("Sync in real life")
struct SyncRealLifeTests {
    typealias World = SyncFaultTests.World

    /// What a person chose on their first device before linking it.
    static func chooseSettings(_ db: AppDatabase) throws {
        _ = try db.focus.changePreferences { $0.focusDuration = 50 * 60 }
        try db.pause.setAppEnabled(id: "youtube", true)
        _ = try db.intentions.changePreferences {
            $0.notificationSettings.dailyEnabled = true; $0.notificationSettings.dailyTime = TimeOfDay(hour: 7, minute: 30)
        }
    }

    static func expectChosenSettings(_ db: AppDatabase, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(try db.focus.preferences().focusDuration == 50 * 60, "\(name): focus length", sourceLocation: sourceLocation)
        #expect(try db.pause.app(id: "youtube")?.isEnabled == true, "\(name): the YouTube gate", sourceLocation: sourceLocation)
        let settings = try db.intentions.preferences().notificationSettings
        #expect(
            settings.dailyEnabled && settings.dailyTime == TimeOfDay(hour: 7, minute: 30), "\(name): the daily reminder",
            sourceLocation: sourceLocation)
    }

    @Test("a new device's untouched defaults never beat the settings a person chose (whichever device id sorts first)")
    func newDeviceKeepsSettings() async throws {
        // Ties between two unchosen-versus-chosen clocks used to break by device id: try both orders, several times.
        for round in 0..<6 {
            let world = try await World()
            let a = try await world.device(beforeLink: Self.chooseSettings)
            _ = try await a.engine.sync()
            world.advance(60, [a])
            let fresh = try await world.device()
            _ = try await fresh.engine.sync()
            _ = try await a.engine.sync()
            try Self.expectChosenSettings(a.database, "round \(round), the first device")
            try Self.expectChosenSettings(fresh.database, "round \(round), the new device")
            try await world.expectConverged([a, fresh])
        }
    }

    @Test("settings chosen after linking survive a new device too, and a later choice on it still wins")
    func newDeviceThenEdit() async throws {
        let world = try await World()
        let a = try await world.device()
        _ = try await a.engine.sync()
        world.advance(60, [a])
        try Self.chooseSettings(a.database)
        _ = try await a.engine.sync()
        world.advance(60, [a])
        let fresh = try await world.device()
        _ = try await fresh.engine.sync()
        try Self.expectChosenSettings(fresh.database, "the new device")
        world.advance(60, [a, fresh])
        _ = try fresh.database.focus.changePreferences { $0.focusDuration = 40 * 60 }
        _ = try await fresh.engine.sync()
        _ = try await a.engine.sync()
        #expect(try a.database.focus.preferences().focusDuration == 40 * 60)
        try await world.expectConverged([a, fresh])
    }

    @Test("a device restored from an old copy of its store does not bring back what was deleted since")
    func restoredDeviceKeepsDeletions() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("grove-restore-device-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let world = try await World()
        let a = try await world.device(), b = try await world.device()
        try a.database.intentions.set("Write every morning", scope: .day)
        let timer = try a.database.timers.create(name: "Essay", durationInSeconds: 600)
        try a.database.pause.addApp(SocialApp(id: "news", displayName: "News", urlScheme: "news://", iconAssetName: "newspaper", order: 20))
        _ = try await a.engine.sync()
        _ = try await b.engine.sync()
        let backup = directory + "/a-backup.sqlite"
        try a.database.backup(to: backup)
        world.advance(3600, [a, b])
        // Deleted on b, a day later.
        for intention in try b.database.intentions.all() { try b.database.intentions.delete(id: intention.id) }
        try b.database.timers.delete(id: timer.id)
        try b.database.pause.deleteApp(id: "news")
        _ = try await b.engine.sync()
        _ = try await a.engine.sync()
        world.advance(3600, [a, b])
        // a's disk is restored from the copy made before the deletions.
        let restored = try AppDatabase.open(path: backup, environment: a.database.environment, concurrentReads: false)
        guard let transport = a.engine.transport as? SimulatedTransport else { Issue.record("transport"); return }
        let network = world.network, service = world.service
        var engine = SyncEngine(database: restored, transport: transport) {
            SimulatedTransport(service: service, token: $0.token, network: network)
        }
        _ = try await engine.sync()
        _ = try await b.engine.sync()
        #expect(try restored.intentions.all().isEmpty)
        #expect(try restored.timers.find(id: timer.id) == nil)
        #expect(try restored.pause.app(id: "news") == nil)
        #expect(try b.database.intentions.all().isEmpty)
        #expect(try b.database.timers.find(id: timer.id) == nil)
        #expect(try b.database.pause.app(id: "news") == nil)
        #expect(try restored.sync.snapshot() == b.database.sync.snapshot())
    }

    @Test("grove sync --reset re-sends rows with the clocks they were stored with: nothing deleted comes back")
    func resetKeepsDeletions() async throws {
        let world = try await World()
        let a = try await world.device(), b = try await world.device()
        let timer = try a.database.timers.create(name: "Essay", durationInSeconds: 600)
        try a.database.intentions.set("Write every morning", scope: .day)
        _ = try await a.engine.sync()
        _ = try await b.engine.sync()
        world.advance(600, [a, b])
        try b.database.timers.delete(id: timer.id)
        for intention in try b.database.intentions.all() { try b.database.intentions.delete(id: intention.id) }
        _ = try await b.engine.sync()
        world.advance(600, [a, b])
        // a resets before it ever pulled the deletions.
        let status = try await a.engine.transport.status()
        try a.database.sync.restart(deviceId: try #require(try a.database.sync.device()?.deviceId), lastMutationId: status.lastMutationId)
        _ = try await a.engine.sync()
        _ = try await b.engine.sync()
        #expect(try a.database.timers.find(id: timer.id) == nil)
        #expect(try a.database.intentions.all().isEmpty)
        #expect(try b.database.timers.find(id: timer.id) == nil)
        try await world.expectConverged([a, b])
    }

    @Test("choosing the value a field already has is a choice: it beats an older different value")
    func sameValueIsRecorded() async throws {
        let world = try await World()
        let a = try await world.device(), b = try await world.device()
        _ = try await a.engine.sync()
        _ = try await b.engine.sync()
        world.advance(60, [a, b])
        // a chooses 50 minutes (offline); later, b chooses 25 — the value b already shows.
        _ = try a.database.focus.changePreferences { $0.focusDuration = 50 * 60 }
        world.advance(60, [a, b])
        _ = try b.database.focus.changePreferences { $0.focusDuration = 25 * 60 }
        _ = try await a.engine.sync()
        _ = try await b.engine.sync()
        _ = try await a.engine.sync()
        #expect(try a.database.focus.preferences().focusDuration == 25 * 60)
        try await world.expectConverged([a, b])
    }

    @Test("an open-ended session reaches the other device open-ended, and its stop with the time spent")
    func openEndedSessionSyncs() async throws {
        let world = try await World()
        let a = try await world.device(), b = try await world.device()
        let started = try a.database.focus.start(openEnded: true, tags: ["essay"])
        _ = try await a.engine.sync()
        _ = try await b.engine.sync()
        #expect(try b.database.focus.current()?.openEnded == true)
        world.advance(30 * 60, [a, b])
        _ = try a.database.focus.stop()
        _ = try await a.engine.sync()
        _ = try await b.engine.sync()
        let there = try #require(try b.database.focus.session(id: started.id))
        #expect(there.state == .completed && there.openEnded && there.duration == 30 * 60)
        // The break is the device's own: the other one starts none for a tree it did not see grow.
        #expect(try b.database.focus.currentBreak() == nil)
        try await world.expectConverged([a, b])
    }

    @Test("a device away past the horizon pulls before it pushes: the server never keeps an incomplete row")
    func awayPastTheHorizon() async throws {
        let world = try await World()
        let a = try await world.device(), b = try await world.device()
        let timer = try a.database.timers.create(name: "Essay", durationInSeconds: 600)
        _ = try await a.engine.sync()
        _ = try await b.engine.sync()
        // b renames the timer offline while a deletes it; b stays away for 100 days.
        _ = try b.database.timers.update(id: timer.id, name: "Essay, renamed offline")
        try a.database.timers.delete(id: timer.id)
        _ = try await a.engine.sync()
        world.advance(100 * 86_400, [a, b])
        _ = try await a.engine.sync()
        let now = world.serverClock.now.addingTimeInterval(-90 * 86_400)
        _ = try await world.store.pruneTombstones(userId: world.userId, olderThan: now, devicesSeenSince: now)
        _ = try await b.engine.sync()
        // Every row the server holds is whole: a new device can create each of them.
        for (key, state) in try await world.store.entities(userId: world.userId) {
            guard let entity = SyncEntity.named(key.entity), !state.isDeleted(entity) else { continue }
            #expect(state.isComplete(entity), "\(key.entity) \(key.id) is incomplete on the server")
        }
        let fresh = try await world.device()
        _ = try await fresh.engine.sync()
        #expect(try fresh.database.sync.status()?.parkedChanges == 0)
        _ = try await a.engine.sync()
        _ = try await b.engine.sync()
        try await world.expectConverged([a, b, fresh])
    }

    @Test("the 30-day pruning of pauses is local: it sends no deletion and the server keeps the history it has")
    func pruningMakesNoTombstones() async throws {
        let world = try await World()
        let a = try await world.device()
        let pause = try a.database.pause.start(appId: "instagram", platform: "test").session
        _ = try a.database.pause.finishSession(id: pause.id, status: .exited, outcome: .exitToHome)
        _ = try await a.engine.sync()
        world.advance(40 * 86_400, [a])
        #expect(try a.database.pause.settle() > 0)
        #expect(try a.database.pause.session(id: pause.id) == nil)
        #expect(try a.database.sync.pendingCount() == 0)
        _ = try await a.engine.sync()
        let stored = try await world.store.entities(userId: world.userId)[EntityKey(entity: "gatewaySession", id: pause.id.uuidString)]
        #expect(stored?.tomb == nil && stored?.isComplete(.gatewaySession) == true)
    }

    @Test("a deletion made here survives a pull that brings an older edit of the row: it still goes out")
    func pendingDeletionSurvivesPull() async throws {
        let world = try await World()
        let a = try await world.device(), b = try await world.device()
        try a.database.intentions.set("Write every morning", scope: .day)
        _ = try await a.engine.sync()
        _ = try await b.engine.sync()
        let id = try #require(try a.database.intentions.all().first?.id)
        world.advance(60, [a, b])
        var edited = try #require(try a.database.intentions.find(id: id))
        edited.text = "Write every evening"
        _ = try a.database.intentions.update(edited)
        world.advance(60, [a, b])
        try b.database.intentions.delete(id: id)
        _ = try await a.engine.sync()
        // b pulls a's older edit before it pushes its later deletion.
        _ = try await b.engine.sync()
        _ = try await a.engine.sync()
        #expect(try a.database.intentions.find(id: id) == nil)
        #expect(try b.database.intentions.find(id: id) == nil)
        try await world.expectConverged([a, b])
    }

    @Test("a row re-sent whole after a reset keeps its own insert clock: a later edit does not revive it past a deletion")
    func resentInsertKeepsItsClock() async throws {
        let world = try await World()
        let a = try await world.device(), b = try await world.device()
        try a.database.intentions.set("Write every morning", scope: .day)
        _ = try await a.engine.sync()
        _ = try await b.engine.sync()
        let id = try #require(try a.database.intentions.all().first?.id)
        world.advance(60, [a, b])
        try b.database.intentions.delete(id: id)
        _ = try await b.engine.sync()
        world.advance(60, [a, b])
        // a edits the row after b deleted it (without having pulled), then starts over with the server.
        var edited = try #require(try a.database.intentions.find(id: id))
        edited.text = "Write every evening"
        _ = try a.database.intentions.update(edited)
        let status = try await a.engine.transport.status()
        try a.database.sync.restart(deviceId: try #require(try a.database.sync.device()?.deviceId), lastMutationId: status.lastMutationId)
        _ = try await a.engine.sync()
        _ = try await b.engine.sync()
        #expect(try a.database.intentions.find(id: id) == nil)
        #expect(try b.database.intentions.find(id: id) == nil)
        try await world.expectConverged([a, b])
    }

    @Test("a slow device's later choice wins: the server's time corrects its clock")
    func slowDeviceLaterEditWins() async throws {
        let world = try await World()
        let a = try await world.device(), slow = try await world.device(skew: -10 * 60)
        _ = try await a.engine.sync()
        _ = try await slow.engine.sync()
        world.advance(30, [a, slow])
        _ = try a.database.focus.changePreferences { $0.focusDuration = 50 * 60 }
        _ = try await a.engine.sync()
        world.advance(30, [a, slow])
        // Later in real time, though the slow machine's wall clock says ten minutes earlier.
        _ = try slow.database.focus.changePreferences { $0.focusDuration = 40 * 60 }
        _ = try await slow.engine.sync()
        _ = try await a.engine.sync()
        #expect(try a.database.focus.preferences().focusDuration == 40 * 60)
        try await world.expectConverged([a, slow])
    }

    /// `syncedAfterTheFix`: the fixed device syncs before its edit (it learns the right offset again)
    /// or not (the server's time, kept on the monotonic clock, is right without it).
    @Test(
        "a fast clock, once fixed, stamps its next choice at the right time, whether or not it synced in between",
        arguments: [(15.0 * 60, true), (2.0 * 86_400, false)])
    func fixedClockStampsRight(skew: TimeInterval, syncedAfterTheFix: Bool) async throws {
        let world = try await World()
        let fast = try await world.device(skew: skew), b = try await world.device()
        _ = try fast.database.timers.create(name: "From the future", durationInSeconds: 60)
        _ = try await fast.engine.sync()
        _ = try await b.engine.sync()
        // The fast machine's clock is put right.
        fast.clock.setWall(world.serverClock.now)
        if syncedAfterTheFix { _ = try await fast.engine.sync() }
        world.advance(60, [fast, b])
        _ = try b.database.focus.changePreferences { $0.focusDuration = 45 * 60 }
        world.advance(1, [fast, b])
        _ = try fast.database.focus.changePreferences { $0.focusDuration = 35 * 60 }
        _ = try await b.engine.sync()
        _ = try await fast.engine.sync()
        _ = try await b.engine.sync()
        #expect(try b.database.focus.preferences().focusDuration == 35 * 60)
        #expect(try fast.database.focus.preferences().focusDuration == 35 * 60)
        try await world.expectConverged([fast, b])
    }

    @Test("the parts of a site a gate covers travel to every device")
    func gatedPathsSync() async throws {
        let world = try await World()
        let a = try await world.device(), b = try await world.device()
        try a.database.pause.setGatedPaths(id: "youtube", ["/shorts"])
        _ = try await a.engine.sync()
        _ = try await b.engine.sync()
        #expect(try b.database.pause.app(id: "youtube")?.gatedPaths == ["/shorts"])
        world.advance(60, [a, b])
        try b.database.pause.setGatedPaths(id: "youtube", [])
        _ = try await b.engine.sync()
        _ = try await a.engine.sync()
        #expect(try a.database.pause.app(id: "youtube")?.gatedPaths == [])
        try await world.expectConverged([a, b])
    }

    @Test("a block schedule and the week's emergency pass travel to every device: one pass a week for the person")
    func blocksSync() async throws {
        let world = try await World()
        let a = try await world.device(), b = try await world.device()
        try a.database.pause.setAppEnabled(id: "youtube", true)
        try a.database.pause.setBlock(id: "youtube", schedule: "daily 00:00-24:00", strict: false)
        _ = try await a.engine.sync()
        _ = try await b.engine.sync()
        let there = try #require(try b.database.pause.app(id: "youtube"))
        #expect(there.blockSchedule?.description == "daily 00:00-24:00" && !there.blockStrict)
        #expect(throws: PauseValidationError.self) { try b.database.pause.open(appId: "youtube", platform: "test") }
        let (pass, _, _) = try b.database.pause.open(appId: "youtube", platform: "test", emergency: true)
        world.advance(20, [a, b])
        try b.database.pause.finishSession(id: pass.id, status: .completed, outcome: .proceedToApp)
        _ = try await b.engine.sync()
        _ = try await a.engine.sync()
        #expect(try a.database.pause.emergencyPass().available == false, "the pass used on b is used on a too")
        #expect(try a.database.pause.session(id: pass.id)?.emergencyPass == true)
        try await world.expectConverged([a, b])
    }

    @Test("the gate's integrity travels: a gate switched off, a tree let wither, the visit measured after Proceed")
    func gateIntegritySync() async throws {
        let world = try await World()
        let a = try await world.device(), b = try await world.device()
        try a.database.pause.setAppEnabled(id: "youtube", true)
        try a.database.pause.setAppEnabled(id: "reddit", true)
        _ = try a.database.focus.start(plannedDuration: 1500)
        let (pause, _, _) = try a.database.pause.open(appId: "youtube", platform: "test", letTreeWither: true)
        world.advance(20, [a, b])
        try a.database.pause.finishSession(id: pause.id, status: .completed, outcome: .proceedToApp)
        try a.database.pause.setAppEnabled(id: "reddit", false)
        _ = try await a.engine.sync()
        _ = try await b.engine.sync()
        // The visit is reported after the pause ended (its own clock, not the pause's terminal rule).
        world.advance(600, [a, b])
        try a.database.pause.reportVisit(id: pause.id, seconds: 540, graceVisits: 1)
        _ = try await a.engine.sync()
        _ = try await b.engine.sync()
        let there = try #require(try b.database.pause.session(id: pause.id))
        #expect(there.witheredTree == true && there.visitSeconds == 540 && there.graceVisits == 1)
        let week = try b.database.pause.weeks().filter(\.current)
        #expect(week.first { $0.appId == "reddit" }?.gatesOff == 1 && week.first { $0.appId == "youtube" }?.witheredTrees == 1)
        #expect(try b.database.pause.weeks() == a.database.pause.weeks(), "one set of figures on every device")
        try await world.expectConverged([a, b])
    }

    @Test("a fast device's session start does not complete another device's fresh session with a tree")
    func fastStartDoesNotCompleteAnother() async throws {
        let world = try await World()
        let a = try await world.device(), fast = try await world.device(skew: 30 * 60)
        _ = try await a.engine.sync()
        _ = try await fast.engine.sync()
        let mine = try a.database.focus.start(plannedDuration: 25 * 60)
        _ = try await a.engine.sync()
        world.advance(60, [a, fast])
        // Started a minute later in real time, stamped half an hour ahead by a fast clock.
        _ = try fast.database.focus.start(plannedDuration: 25 * 60)
        _ = try await fast.engine.sync()
        _ = try await a.engine.sync()
        _ = try await fast.engine.sync()
        let closed = try #require(try a.database.focus.session(id: mine.id))
        #expect(closed.state == .abandoned, "\(closed.state) after \(closed.duration) s")
        #expect(try a.database.focus.stats().totalTrees == 0)
        try await world.expectConverged([a, fast])
    }

    @Test("a session from a device two days fast counts down on the others, and ends there when it ends on it")
    func fastSessionIsNotFrozen() async throws {
        let world = try await World()
        let fast = try await world.device(skew: 2 * 86_400), b = try await world.device()
        _ = try await fast.engine.sync()
        let started = try fast.database.focus.start(plannedDuration: 25 * 60)
        _ = try await fast.engine.sync()
        _ = try await b.engine.sync()
        world.advance(60, [fast, b])
        // A minute in, both say 24:00 left: not frozen at 25:00 for two days.
        let there = try #require(try b.database.focus.status().remaining)
        let here = try #require(try fast.database.focus.status().remaining)
        #expect(abs(there - 24 * 60) < 2, "\(there) s left on the other device")
        #expect(abs(here - 24 * 60) < 2, "\(here) s left on the device that started it")
        // At its end, the other device settles it at the same instant the fast one does.
        world.advance(25 * 60, [fast, b])
        #expect(try b.database.focus.current() == nil)
        #expect(try fast.database.focus.current() == nil)
        let theirs = try #require(try b.database.focus.session(id: started.id))
        let own = try #require(try fast.database.focus.session(id: started.id))
        #expect(theirs.state == .completed && own.state == .completed)
        #expect(theirs.endTime == own.endTime)
        _ = try await b.engine.sync()
        _ = try await fast.engine.sync()
        _ = try await b.engine.sync()
        try await world.expectConverged([fast, b])
    }

    @Test("setting a period's intention to the words it already has is a choice: it beats older, other words")
    func sameIntentionIsRecorded() async throws {
        let world = try await World()
        let a = try await world.device(), b = try await world.device()
        try a.database.intentions.set("Write", scope: .day)
        _ = try await a.engine.sync()
        _ = try await b.engine.sync()
        world.advance(60, [a, b])
        try a.database.intentions.set("Rest", scope: .day)
        world.advance(60, [a, b])
        try b.database.intentions.set("Write", scope: .day)
        _ = try await a.engine.sync()
        _ = try await b.engine.sync()
        _ = try await a.engine.sync()
        #expect(try a.database.intentions.all().map(\.text) == ["Write"])
        try await world.expectConverged([a, b])
    }
}
