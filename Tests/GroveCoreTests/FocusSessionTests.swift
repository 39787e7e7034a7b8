import Foundation
import Testing

@testable import GroveCore

@Suite("Focus sessions: state machine and timing")
struct FocusSessionTests {
    let t0 = instant("2025-05-01T09:00:00Z")

    func fresh(_ planned: TimeInterval = 1500) throws -> FocusSession {
        try FocusSession.start(id: uuid(1), at: t0, plannedDuration: planned, timeZone: utc.timeZone)
    }

    @Test func stateDisplayNamesAndTransitionsMatchTheSeed() {
        #expect(SessionState.allCases.map(\.displayName) == ["Active", "Paused", "Completed", "Abandoned"])
        #expect(SessionState.active.canTransitionTo == [.paused, .completed, .abandoned])
        #expect(SessionState.paused.canTransitionTo == [.active, .abandoned])
        #expect(SessionState.completed.canTransitionTo.isEmpty)
        #expect(SessionState.abandoned.canTransitionTo.isEmpty)
        for from in SessionState.allCases {
            for to in SessionState.allCases {
                #expect(from.canTransition(to: to) == from.canTransitionTo.contains(to))
            }
        }
    }

    @Test(arguments: SessionState.allCases)
    func everyIllegalTransitionThrowsATypedError(from state: SessionState) throws {
        var session = try fresh()
        switch state {
        case .active: break
        case .paused: try session.pause(at: t0 + 60)
        case .completed: try session.complete(at: t0 + 1500, in: utc)
        case .abandoned: try session.abandon(at: t0 + 60, in: utc)
        }
        let later = t0 + 120
        let attempts: [(SessionState, (inout FocusSession) throws(FocusError) -> Void)] = [
            (.paused, { s throws(FocusError) in try s.pause(at: later) }),
            (.active, { s throws(FocusError) in try s.resume(at: later) }),
            (.completed, { s throws(FocusError) in try s.complete(at: later, in: utc) }),
            (.abandoned, { s throws(FocusError) in try s.abandon(at: later, in: utc) }),
        ]
        for (target, attempt) in attempts {
            var copy = session
            if state.canTransition(to: target) {
                try attempt(&copy)
                #expect(copy.state == target)
            } else {
                #expect(throws: FocusError.illegalTransition(from: state, to: target)) { try attempt(&copy) }
                #expect(copy == session, "a refused transition changes nothing")
            }
        }
    }

    @Test func plannedLengthDefaultsTo25MinutesAndIsBounded() throws {
        #expect(FocusSession.defaultPlannedDuration == 1500)
        #expect(throws: FocusError.invalidPlannedDuration(0)) {
            try FocusSession.start(id: uuid(1), at: t0, plannedDuration: 0, timeZone: utc.timeZone)
        }
        #expect(throws: FocusError.invalidPlannedDuration(14_401)) {
            try FocusSession.start(id: uuid(1), at: t0, plannedDuration: 14_401, timeZone: utc.timeZone)
        }
        // A tree costs a minute: a 30-second session is no tree, so it is not started.
        #expect(throws: FocusError.invalidPlannedDuration(30)) {
            try FocusSession.start(id: uuid(1), at: t0, plannedDuration: 30, timeZone: utc.timeZone)
        }
        _ = try FocusSession.start(id: uuid(1), at: t0, plannedDuration: 60, timeZone: utc.timeZone)
        _ = try FocusSession.start(id: uuid(1), at: t0, plannedDuration: 14_400, timeZone: utc.timeZone)
        #expect(FocusError.invalidPlannedDuration(5 * 3600).message == "Session length must be at most 4 hours")
        #expect(FocusError.invalidPlannedDuration(30).message.hasSuffix("a tree costs at least a minute of focus"))
        #expect(FocusError.invalidPlannedDuration(0).field == "plannedDuration")
    }

    @Test func focusTimeExcludesPausesAndEndTimeStaysNilUntilTerminal() throws {
        var s = try fresh()
        #expect(s.focusTime(at: t0 + 300) == 300)
        try s.pause(at: t0 + 300)
        #expect(s.endTime == nil)
        #expect(s.focusTime(at: t0 + 900) == 300, "time paused does not count")
        #expect(s.pausedTime(at: t0 + 900) == 600)
        try s.resume(at: t0 + 900)
        #expect(s.pausedDuration == 600)
        #expect(s.endTime == nil)
        #expect(s.focusTime(at: t0 + 1000) == 400)
        #expect(s.remaining(at: t0 + 1000) == 1100)
        #expect(s.dueAt == t0 + 2100)
    }

    @Test func aSessionCompletesAtTheExactInstantItReachedItsLengthEvenSeenHoursLater() throws {
        var s = try fresh()
        try s.pause(at: t0 + 600)
        try s.resume(at: t0 + 660)
        let seenLate = s.settled(at: t0 + 5 * 3600, fallback: utc)
        #expect(seenLate.state == .completed)
        #expect(seenLate.endTime == t0 + 1560)
        #expect(seenLate.duration == 1500)
        #expect(seenLate.pausedDuration == 60)
        #expect(seenLate.endDay == day("2025-05-01"))
        #expect(s.settled(at: t0 + 1559, fallback: utc).state == .active, "one second early it is still running")
    }

    @Test func aPausedSessionNeverCompletesOnItsOwn() throws {
        var s = try fresh(60)
        try s.pause(at: t0 + 30)
        #expect(s.settled(at: t0 + 86_400, fallback: utc).state == .paused)
        try s.abandon(at: t0 + 100, in: utc)
        #expect(s.pausedDuration == 70)
        #expect(s.duration == 30)
        #expect(s.endTime == t0 + 100)
        #expect(s.pausedAt == nil)
    }

    @Test func completingEarlyCountsTheFocusSpentAndCompletingLateIsCappedAtTheLength() throws {
        var early = try fresh()
        try early.complete(at: t0 + 100, in: utc)
        #expect(early.duration == 100)
        var late = try fresh()
        try late.complete(at: t0 + 9000, in: utc)
        #expect(late.endTime == t0 + 1500)
        #expect(late.duration == 1500)
    }

    @Test func endDayIsTheLocalDayWhereTheSessionEnded() throws {
        var s = try FocusSession.start(id: uuid(1), at: instant("2025-03-09T04:00:00Z"), plannedDuration: 3600, timeZone: newYork.timeZone)
        try s.abandon(at: instant("2025-03-09T04:50:00Z"), in: newYork)
        #expect(s.endDay == day("2025-03-08"))
        #expect(s.timeZoneIdentifier == "America/New_York")
    }

    @Test(arguments: [
        (0.0, TreeStage.seed), (0.24, .seed), (0.25, .sprout), (0.5, .sapling), (0.8, .youngTree), (0.999, .youngTree), (1.0, .fullTree),
    ])
    func treeGrowsThroughFiveStages(progress: Double, stage: TreeStage) {
        #expect(TreeStage(progress: progress) == stage)
    }

    @Test func treeStageFollowsTheSession() throws {
        let s = try fresh(100)
        #expect(s.treeStage(at: t0) == .seed)
        #expect(s.treeStage(at: t0 + 50) == .sapling)
        #expect(s.treeStage(at: t0 + 100) == .fullTree)
        #expect(TreeStage.allCases.count == 5)
    }

    @Test func pomodoroCycleOffersALongBreakEveryNthSession() throws {
        let p = FocusPreferences.default
        #expect(p.breakAfter(completedInCycle: 1).kind == .short)
        #expect(p.breakAfter(completedInCycle: 4) == PomodoroBreak(kind: .long, duration: 900))
        #expect(p.breakAfter(completedInCycle: 5).duration == 300)
        var bad = p
        bad.longBreakInterval = 0
        #expect(
            throws: FocusError.invalidPreference(field: "longBreakInterval", rule: "Long break interval must be between 1 and 12 sessions")
        ) { try bad.validate() }
        bad = p
        bad.shortBreakDuration = 0
        #expect(throws: FocusError.self) { try bad.validate() }
    }

    /// What a store accepts from any writer: the session's own day where it was lived, an open
    /// session without an end, a pause exactly when paused, finite numbers.
    @Test func storedSessionRules() throws {
        let ok = completed(1, endingAt: instant("2025-03-09T04:30:00Z"), in: newYork)
        try ok.validateAsStored()
        #expect(ok.endDay == day("2025-03-08"), "23:30 in New York is still the 8th")
        var wrongDay = ok
        wrongDay.endDay = day("2025-03-09")
        #expect(throws: InvalidField.self) { try wrongDay.validateAsStored() }
        var unknownZone = ok
        unknownZone.timeZoneIdentifier = "Mars/Olympus"
        #expect(throws: InvalidField.self) { try [ok, unknownZone].validateAsStored() }
        var endless = ok
        endless.endTime = nil
        #expect(throws: InvalidField.self) { try endless.validateAsStored() }
        var pausedWithoutInstant = try fresh()
        pausedWithoutInstant.state = .paused
        #expect(throws: InvalidField.self) { try pausedWithoutInstant.validateAsStored() }
        var infinite = ok
        infinite.duration = .infinity
        #expect(throws: InvalidField.self) { try infinite.validateAsStored() }
        var longPause = ok
        longPause.pausedDuration = FocusSession.maxPausedDuration + 1
        #expect(throws: InvalidField.self) { try longPause.validateAsStored() }
        try [ok, completed(2, endingAt: instant("2025-03-10T12:00:00Z"), in: utc)].validateAsStored()
    }
}
