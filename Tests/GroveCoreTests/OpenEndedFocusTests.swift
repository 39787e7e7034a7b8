import Foundation
import Testing

@testable import GroveCore

@Suite("Open-ended sessions and breaks: pure timing")
struct OpenEndedFocusTests {
    let t0 = instant("2025-05-01T09:00:00Z")

    @Test func itsTreeGrowsByTheTimeSpentAndStopKeepsThatTime() throws {
        var session = FocusSession.startOpen(id: uuid(1), at: t0, timeZone: utc.timeZone)
        #expect(session.openEnded && session.plannedDuration == FocusSession.plannedDurationRange.upperBound)
        // Full after a Pomodoro's worth of focus, whatever the limit.
        #expect(session.treeStage(at: t0.addingTimeInterval(6 * 60)) == .seed)
        #expect(session.treeStage(at: t0.addingTimeInterval(13 * 60)) == .sapling)
        #expect(session.progress(at: t0.addingTimeInterval(12.5 * 60)) == 0.5)
        #expect(session.progress(at: t0.addingTimeInterval(3 * 3600)) == 1)
        try session.pause(at: t0.addingTimeInterval(600))
        // Stopped while paused: the pause is not focus.
        try session.stop(at: t0.addingTimeInterval(900), in: newYork)
        #expect(session.state == .completed && session.duration == 600 && session.pausedDuration == 300)
        #expect(session.endTime == t0.addingTimeInterval(900) && session.endDay == day("2025-05-01"))
        #expect(throws: FocusError.illegalTransition(from: .completed, to: .completed)) {
            try session.stop(at: t0.addingTimeInterval(1000), in: utc)
        }
        var planned = try FocusSession.start(id: uuid(2), at: t0, plannedDuration: 600, timeZone: utc.timeZone)
        #expect(throws: FocusError.notOpenEnded) { try planned.stop(at: t0.addingTimeInterval(60), in: utc) }
    }

    @Test("a tree costs a minute: stopped sooner, the session is given up, in every face the same")
    func stoppedBeforeAMinuteIsNoTree() throws {
        var quick = FocusSession.startOpen(id: uuid(1), at: t0, timeZone: utc.timeZone)
        try quick.stop(at: t0.addingTimeInterval(0.139), in: utc)
        #expect(quick.state == .abandoned && abs(quick.duration - 0.139) < 0.001 && quick.treeStage(at: t0) != .fullTree)
        #expect(TreeLook(quick).isWithered)
        // Paused after 50 s and stopped ten minutes later: 50 s of focus, still no tree.
        var paused = FocusSession.startOpen(id: uuid(2), at: t0, timeZone: utc.timeZone)
        try paused.pause(at: t0.addingTimeInterval(50))
        try paused.stop(at: t0.addingTimeInterval(650), in: utc)
        #expect(paused.state == .abandoned && paused.duration == 50)
        // A minute exactly is a tree.
        var minute = FocusSession.startOpen(id: uuid(3), at: t0, timeZone: utc.timeZone)
        try minute.stop(at: t0.addingTimeInterval(60), in: utc)
        #expect(minute.state == .completed && minute.treeStage(at: t0) == .fullTree && !TreeLook(minute).isWithered)
        // Logged as completed, a tree costs the same minute; given up, any length is history.
        #expect(throws: FocusError.invalidPlannedDuration(30)) {
            try FocusSession.logged(id: uuid(4), start: t0, end: t0.addingTimeInterval(30), now: t0.addingTimeInterval(60), calendar: utc)
        }
        let given = try FocusSession.logged(
            id: uuid(5), start: t0, end: t0.addingTimeInterval(30), abandoned: true, now: t0.addingTimeInterval(60), calendar: utc)
        #expect(given.state == .abandoned)
    }

    @Test("its 4-hour limit is a safety stop, never time left: every face says how long so far")
    func noCountdown() throws {
        var open = FocusSession.startOpen(id: uuid(1), at: t0, timeZone: utc.timeZone)
        let later = t0.addingTimeInterval(754)
        #expect(open.remaining(at: later) == nil)
        #expect(open.timeText(at: later) == "12:34 so far")
        #expect(open.untilEnd(at: later) == 4 * 3600 - 754)
        let report = FocusStatusReport(open, now: later)
        #expect(report.remaining == nil && report.focusTime == 754)
        try open.pause(at: later)
        #expect(open.timeText(at: later.addingTimeInterval(600)) == "12:34 so far")
        let planned = try FocusSession.start(id: uuid(2), at: t0, plannedDuration: 1500, timeZone: utc.timeZone)
        #expect(planned.remaining(at: later) == 746 && planned.timeText(at: later) == "12:26 left")
        #expect(FocusStatusReport(planned, now: later).remaining == 746)
    }

    @Test func theFlagIsWrittenOnlyWhenSetAndReadWhenMissing() throws {
        let encoder = JSONEncoder()
        let planned = try FocusSession.start(id: uuid(1), at: t0, plannedDuration: 600, timeZone: utc.timeZone)
        #expect(!String(decoding: try encoder.encode(planned), as: UTF8.self).contains("openEnded"))
        let open = FocusSession.startOpen(id: uuid(2), at: t0, timeZone: utc.timeZone)
        let decoded = try JSONDecoder().decode(FocusSession.self, from: try encoder.encode(open))
        #expect(decoded == open && decoded.openEnded)
        #expect(try JSONDecoder().decode(FocusSession.self, from: try encoder.encode(planned)).openEnded == false)
    }

    @Test func aBreakRunsItsLengthOrUntilEndedEarly() {
        var pause = FocusBreak(sessionID: uuid(1), kind: .short, startTime: t0, duration: 300)
        #expect(pause.remaining(at: t0.addingTimeInterval(-10)) == 300)
        #expect(pause.remaining(at: t0.addingTimeInterval(100)) == 200 && pause.isRunning(at: t0.addingTimeInterval(299)))
        #expect(!pause.isRunning(at: t0.addingTimeInterval(300)))
        pause.end(at: t0.addingTimeInterval(120))
        #expect(pause.endTime == t0.addingTimeInterval(120) && !pause.isRunning(at: t0.addingTimeInterval(121)))
        // Ending one already over changes nothing.
        var over = FocusBreak(sessionID: uuid(1), kind: .long, startTime: t0, duration: 300)
        over.end(at: t0.addingTimeInterval(400))
        #expect(over.endedEarlyAt == nil)
        // The report shows a break only while it runs and no session is open.
        #expect(FocusStatusReport(nil, now: t0.addingTimeInterval(10), break: over).break?.remaining == 290)
        #expect(FocusStatusReport(nil, now: t0.addingTimeInterval(300), break: over).break == nil)
    }
}
