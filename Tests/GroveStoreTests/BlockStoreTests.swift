import Foundation
import GroveCore
import Testing

@testable import GroveStore

/// Scheduled blocks in the store: `open` refuses during a block in the configured zone (DST
/// included), the week's one emergency pass lets one visit through and is counted, and a strict
/// block holds the app's gate, schedule and paths until it ends.
@Suite("Scheduled blocks in the store")
struct BlockStoreTests {
    @Test("weekdays 09:00-12:00 in New York: refused inside, one emergency pass a week, strict holds the gate")
    func blockAndPass() throws {
        // Friday 2026-03-06, 08:30 EST; the Sunday after, clocks spring forward.
        let (db, clock) = try makeStore(at: "2026-03-06T13:30:00Z", zone: "America/New_York")
        try db.pause.setAppEnabled(id: "youtube", true)
        let app = try db.pause.setBlock(id: "youtube", schedule: "weekdays 09:00-12:00", strict: true)
        #expect(app.blockSchedule?.description == "mon-fri 09:00-12:00" && app.blockStrict)
        #expect(try db.pause.activeBlock(appId: "youtube") == nil)
        _ = try db.pause.open(appId: "youtube", platform: "test")  // before the block: a pause
        clock.advance(by: 31 * 60)  // 09:01 EST
        #expect(throws: PauseValidationError.blocked("YouTube", until: "12:00")) { try db.pause.open(appId: "youtube", platform: "test") }
        let strict = PauseValidationError.strictBlock("YouTube", until: "12:00")
        #expect(throws: strict) { try db.pause.setAppEnabled(id: "youtube", false) }
        #expect(throws: strict) { try db.pause.setBlock(id: "youtube", schedule: nil, strict: false) }
        #expect(throws: strict) { try db.pause.setGatedPaths(id: "youtube", ["/shorts"]) }
        #expect(throws: strict) { try db.pause.deleteApp(id: "youtube") }
        #expect(throws: strict) { try db.pause.changePreferences { $0.enabledApps = [] } }
        #expect(try db.pause.app(id: "youtube")?.isEnabled == true)
        // The emergency pass: one visit, counted on the pause, then none until next week.
        #expect(try db.pause.emergencyPass().available)
        let (pass, _, _) = try db.pause.open(appId: "youtube", platform: "test", emergency: true)
        #expect(pass.emergencyPass == true)
        #expect(try db.pause.emergencyPass().usedBy?.id == pass.id)
        #expect(throws: PauseValidationError.self) { try db.pause.open(appId: "youtube", platform: "test", emergency: true) }
        // Monday 2026-03-09 09:30 EDT (13:30 UTC, an hour earlier in UTC than Friday's 09:30): blocked, a new pass.
        clock.setWall(instant("2026-03-09T13:30:00Z"))
        let block = try #require(try db.pause.activeBlock(appId: "youtube"))
        #expect(block.start == instant("2026-03-09T13:00:00Z") && block.end == instant("2026-03-09T16:00:00Z"))
        #expect(try db.pause.emergencyPass().available)
        // 12:00 EDT: the block is over, the gate is the person's again.
        clock.setWall(instant("2026-03-09T16:00:00Z"))
        _ = try db.pause.open(appId: "youtube", platform: "test")
        #expect(try db.pause.setBlock(id: "youtube", schedule: nil, strict: false).blockSchedule == nil)
    }

    @Test("a non-strict block leaves the settings free, and an app whose gate is off is not blocked")
    func notStrict() throws {
        let (db, _) = try makeStore(at: "2026-11-30T10:00:00Z")  // a Monday, UTC
        try db.pause.setAppEnabled(id: "reddit", true)
        try db.pause.setBlock(id: "reddit", schedule: "mon 09:00-12:00", strict: false)
        #expect(throws: PauseValidationError.self) { try db.pause.open(appId: "reddit", platform: "test") }
        try db.pause.setAppEnabled(id: "reddit", false)
        #expect(try db.pause.activeBlock(appId: "reddit") == nil)
        #expect(throws: PauseValidationError.invalidBlockSchedule("mon 9-12", rule: "times are HH:MM, 00:00 to 24:00")) {
            try db.pause.setBlock(id: "reddit", schedule: "mon 9-12", strict: false)
        }
        #expect(try db.pause.app(id: "reddit")?.blockSchedule?.description == "mon 09:00-12:00", "a refused schedule changes nothing")
    }
}

/// "Delayed" counted in SQL (`UsageStatistics.delayedSQL`) is the same as in Swift (`delayedIDs`),
/// over pauses at random gaps around the 10-minute window, for two apps, across local days.
@Suite("Pause figures in the store")
struct PauseFiguresStoreTests {
    @Test(arguments: [1, 2, 3, 4, 5])
    func delayedInSQLIsDelayedInSwift(seed: UInt64) throws {
        let (db, clock) = try makeStore(at: "2026-11-18T22:00:00Z", zone: "America/New_York")
        let content = try #require(try db.content.all().first).id
        let calendar = try db.calendar()
        var random = SeededRandom(seed: seed)
        var at = instant("2026-11-17T12:00:00Z")
        var sessions: [GatewaySession] = []
        for n in 0..<60 {
            let outcome = [GatewaySession.ActionType.exitToHome, .proceedToApp, .deepenPause, .exitToHome][Int(random.next() % 4)]
            let spent = Int(random.next() % 20)
            var s = GatewaySession(
                id: UUID(), appId: random.next() % 3 == 0 ? "x" : "youtube", contentId: content, startTimestamp: at,
                durationSetting: 15, completionStatus: outcome == .proceedToApp ? .completed : .exited, timeSpent: min(spent, 15),
                actionOutcome: outcome, platform: "t", calendar: calendar)
            s.endTimestamp = at.addingTimeInterval(TimeInterval(spent))
            sessions.append(s)
            try db.pause.record(s)
            // Gaps around the window: well inside, just inside, just outside, far.
            at = at.addingTimeInterval([60, 590, 600 + 15, 640, 3600][Int(random.next() % 5)] + Double(n % 3))
        }
        clock.setWall(at)
        let stored = try db.pause.statistics()
        let expected = UsageStatistics.derive(from: sessions, calendar: calendar)
        #expect(stored.map(\.delayedSessions).reduce(0, +) > 0, "the case is exercised")
        for day in expected {
            let found = stored.first { $0.id == day.id }
            #expect(found?.delayedSessions == day.delayedSessions && found?.notOpenedSessions == day.notOpenedSessions, "\(day.id)")
        }
    }
}

/// A small deterministic generator (SplitMix64), so that a failing seed fails again.
struct SeededRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The allowlist while a tree grows: an app allowed for the session's tag (or every session) opens
/// through its gate and the tree keeps growing; any other waits behind it.
@Suite("The focus allowlist in the store")
struct FocusAllowlistStoreTests {
    @Test func allowedForATagOrAlways() throws {
        let (db, _) = try makeStore()
        for id in ["youtube", "reddit", "x"] { try db.pause.setAppEnabled(id: id, true) }
        #expect(
            try db.pause.setFocusAllowed(id: "youtube", always: false, tags: [" Music", "lecture", "music"]).focusAllowed == [
                "Music", "lecture",
            ])
        try db.pause.setFocusAllowed(id: "x", always: true, tags: [])
        _ = try db.focus.start(plannedDuration: 1500, tags: ["music"])
        let (pause, _, _) = try db.pause.open(appId: "youtube", platform: "test")
        let growing = try db.focus.current()?.state
        #expect(pause.isOpen && growing == .active, "the tree keeps growing")
        _ = try db.pause.open(appId: "x", platform: "test")
        #expect(throws: PauseValidationError.treeGrowing("Reddit")) { try db.pause.open(appId: "reddit", platform: "test") }
        // Another session's tags: YouTube waits behind the tree again.
        _ = try db.focus.abandon()
        _ = try db.focus.start(plannedDuration: 1500, tags: ["essay"])
        #expect(throws: PauseValidationError.treeGrowing("YouTube")) { try db.pause.open(appId: "youtube", platform: "test") }
        #expect(throws: InvalidField.self) { try db.pause.setFocusAllowed(id: "youtube", always: false, tags: ["a,b"]) }
        #expect(try db.pause.app(id: "youtube")?.focusAllowed == ["Music", "lecture"], "a refused list changes nothing")
        #expect(try db.pause.setFocusAllowed(id: "youtube", always: false, tags: []).focusAllowed == [])
    }
}
