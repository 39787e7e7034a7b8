import Foundation
import GRDB
import GroveCore
import Testing

@testable import GroveStore

@Suite("Focus sessions in the store")
struct FocusStoreTests {
    @Test func aLoggedSessionMayNotOverlapOneAlreadyRecordedAndCanBeTakenBack() throws {
        let (db, _) = try makeStore(at: "2025-05-10T12:00:00Z")
        let first = try db.focus.log(start: instant("2025-05-10T09:00:00Z"), end: instant("2025-05-10T09:25:00Z"))
        // The same session again, one starting inside it, one containing it: refused, nothing written.
        for (start, end) in [("09:00", "09:25"), ("09:10", "09:40"), ("08:50", "09:05"), ("08:00", "10:00")] {
            #expect(throws: FocusError.self) {
                try db.focus.log(start: instant("2025-05-10T\(start):00Z"), end: instant("2025-05-10T\(end):00Z"))
            }
        }
        #expect(try db.focus.stats().totalTrees == 1)
        // Back to back is fine.
        _ = try db.focus.log(start: instant("2025-05-10T09:25:00Z"), end: instant("2025-05-10T09:50:00Z"))
        _ = try db.focus.log(start: instant("2025-05-10T08:35:00Z"), end: instant("2025-05-10T09:00:00Z"))
        #expect(try db.focus.stats().totalTrees == 3)
        // Taken back by its id in any case; a start shared by several ids (this store's are sequential) is refused.
        let prefix = first.id.uuidString.lowercased()
        #expect(try db.focus.session(idPrefix: prefix).id == first.id)
        #expect(throws: InvalidField.self) { try db.focus.session(idPrefix: "00000000") }
        try db.focus.delete(id: try db.focus.session(idPrefix: prefix).id)
        #expect(try db.focus.stats().totalTrees == 2)
        #expect(throws: NotFoundError.self) { try db.focus.session(idPrefix: prefix) }
        #expect(throws: InvalidField.self) { try db.focus.session(idPrefix: "abc") }
        _ = try db.focus.log(start: instant("2025-05-10T09:00:00Z"), end: instant("2025-05-10T09:25:00Z"))
    }

    @Test func startPauseResumeAbandon() throws {
        let (db, clock) = try makeStore()
        let started = try db.focus.start(plannedDuration: 600)
        #expect(try db.focus.current()?.id == started.id)
        clock.advance(by: 100)
        #expect(try db.focus.pause().state == .paused)
        clock.advance(by: 50)
        let resumed = try db.focus.resume()
        #expect(resumed.pausedDuration == 50)
        clock.advance(by: 10)
        let gone = try db.focus.abandon()
        #expect(gone.state == .abandoned)
        #expect(gone.duration == 110)
        #expect(try db.focus.current() == nil)
        #expect(try db.focus.stats().abandonedCount == 1)
    }

    @Test func onlyOneSessionAtATimeAndRefusalsChangeNothing() throws {
        let (db, _) = try makeStore()
        try db.focus.start()
        let before = try snapshot(db)
        #expect(throws: FocusError.sessionAlreadyOpen) { try db.focus.start() }
        #expect(throws: FocusError.illegalTransition(from: .active, to: .active)) { try db.focus.resume() }
        #expect(try snapshot(db) == before)
        try db.focus.abandon()
        #expect(throws: FocusError.noOpenSession) { try db.focus.pause() }
        #expect(throws: FocusError.invalidPlannedDuration(0)) { try db.focus.start(plannedDuration: 0) }
    }

    @Test func plannedLengthComesFromPreferences() throws {
        let (db, _) = try makeStore()
        try db.focus.updatePreferences(
            FocusPreferences(focusDuration: 3000, shortBreakDuration: 300, longBreakDuration: 900, longBreakInterval: 4))
        #expect(try db.focus.start().plannedDuration == 3000)
        #expect(throws: FocusError.self) {
            try db.focus.updatePreferences(
                FocusPreferences(focusDuration: 0, shortBreakDuration: 300, longBreakDuration: 900, longBreakInterval: 4))
        }
        #expect(try db.focus.preferences().focusDuration == 3000)
    }

    @Test func aSessionNobodyWatchedCompletesAtTheRightInstant() throws {
        let (db, clock) = try makeStore(at: "2025-05-01T23:50:00Z")
        let started = try db.focus.start(plannedDuration: 1500)
        clock.advance(by: 3 * 3600)  // the process died; someone looks three hours later
        #expect(try db.focus.current() == nil)
        let done = try #require(try db.focus.session(id: started.id))
        #expect(done.state == .completed)
        #expect(done.endTime == instant("2025-05-02T00:15:00Z"))
        #expect(done.endDay == day("2025-05-02"))
        let stats = try db.focus.stats()
        #expect(stats.totalTrees == 1)
        #expect(stats.todaysTrees == 1)
        #expect(try db.focus.completed().map(\.id) == [started.id])
    }

    @Test func aWallClockJumpDoesNotChangeARunningSession() throws {
        let (db, clock) = try makeStore()
        let started = try db.focus.start(plannedDuration: 600)
        clock.advance(by: 120)
        clock.setWall(instant("2025-05-01T07:00:00Z"))  // two hours back, same boot
        let session = try #require(try db.focus.current())
        #expect(session.remaining(at: try db.focus.now(for: session)) == 480)
        #expect(session.clockUncertain == false)
        #expect(session.id == started.id)
    }

    @Test func afterARebootTheWallClockIsUsedClampedAndTheSessionIsFlagged() throws {
        let (db, clock) = try makeStore()
        try db.focus.start(plannedDuration: 600)
        clock.advance(by: 60)
        try db.focus.pause()
        clock.reboot()
        clock.advance(by: 30)
        let resumed = try db.focus.resume()
        #expect(resumed.clockUncertain)
        #expect(resumed.pausedDuration == 30)
    }

    @Test func loggingPastSessionsValidatesAndChangesNothingWhenBad() throws {
        let (db, _) = try makeStore(at: "2025-05-10T12:00:00Z")
        let before = try snapshot(db)
        let s = instant("2025-05-09T10:00:00Z")
        #expect(throws: FocusError.invalidInterval("A session must end after it starts")) { try db.focus.log(start: s, end: s) }
        #expect(throws: FocusError.invalidInterval("A logged session cannot end in the future")) {
            try db.focus.log(start: s, end: instant("2025-05-11T10:00:00Z"))
        }
        #expect(throws: FocusError.invalidInterval("Pauses must lie inside the session and not overlap")) {
            try db.focus.log(
                start: s, end: s + 1800, pauses: [.init(start: s + 100, end: s + 200), .init(start: s + 150, end: s + 300)])
        }
        #expect(throws: FocusError.invalidPlannedDuration(5 * 3600)) { try db.focus.log(start: s, end: s + 5 * 3600) }
        #expect(try snapshot(db) == before)

        let logged = try db.focus.log(start: s, end: s + 1800, pauses: [.init(start: s + 600, end: s + 900)])
        #expect(logged.state == .completed)
        #expect(logged.duration == 1500)
        #expect(logged.pausedDuration == 300)
        let gaveUp = try db.focus.log(start: s + 3600, end: s + 4000, abandoned: true, plannedDuration: 1500)
        #expect(gaveUp.state == .abandoned)
        let stats = try db.focus.stats()
        #expect(stats.totalTrees == 1)
        #expect(stats.abandonedCount == 1)
        #expect(stats.currentStreak == 1, "yesterday's tree keeps the streak alive today")
    }

    @Test func travellersLogInTheZoneTheyWereIn() throws {
        let (db, _) = try makeStore(at: "2025-06-03T00:00:00Z")
        let logged = try db.focus.log(
            start: instant("2025-06-01T10:00:00Z"), end: instant("2025-06-01T10:25:00Z"), timeZone: TimeZone(identifier: "Etc/GMT-14")!)
        #expect(logged.endDay == day("2025-06-02"))
        #expect(logged.timeZoneIdentifier == "Etc/GMT-14")
    }

    @Test func sqlStatsEqualStatsComputedFromEverySession() throws {
        let (db, _) = try makeStore(at: "2025-03-20T12:00:00Z", zone: "America/New_York")
        let ny = ZonedCalendar(identifier: "America/New_York")!
        var sessions: [FocusSession] = []
        for i in 0..<300 {
            let end = instant("2025-02-20T00:00:00Z").addingTimeInterval(TimeInterval(i * 7919))
            let completed = i % 5 != 2
            sessions.append(
                FocusSession(
                    id: UUID(), startTime: end - 1500, endTime: end, state: completed ? .completed : .abandoned,
                    duration: completed ? 1500 : 700, plannedDuration: 1500, timeZoneIdentifier: ny.timeZone.identifier,
                    endDay: ny.localDay(of: end)))
        }
        try db.focus.insert(sessions)
        #expect(try db.focus.stats() == ForestStats.from(sessions: sessions, now: instant("2025-03-20T12:00:00Z"), calendar: ny))
        // Deleting keeps the per-day totals exact.
        try db.focus.delete(id: sessions[0].id)
        #expect(
            try db.focus.stats()
                == ForestStats.from(sessions: Array(sessions.dropFirst()), now: instant("2025-03-20T12:00:00Z"), calendar: ny))
        #expect(throws: NotFoundError.self) { try db.focus.delete(id: sessions[0].id) }
    }

    @Test func theSeedsQueries() throws {
        let (db, clock) = try makeStore(at: "2025-05-03T12:00:00Z")
        let a = try db.focus.log(start: instant("2025-05-01T10:00:00Z"), end: instant("2025-05-01T10:25:00Z"))
        let b = try db.focus.log(start: instant("2025-05-03T08:00:00Z"), end: instant("2025-05-03T08:25:00Z"))
        _ = try db.focus.log(
            start: instant("2025-05-03T09:00:00Z"), end: instant("2025-05-03T09:05:00Z"), abandoned: true, plannedDuration: 1500)
        #expect(try db.focus.completed().map(\.id) == [b.id, a.id], "Query 1: newest first")
        #expect(try db.focus.completed(limit: 1).map(\.id) == [b.id])
        #expect(try db.focus.completedToday().map(\.id) == [b.id], "Query 2")
        #expect(try db.focus.all().count == 3, "Query 3")
        #expect(
            try db.focus.completed(from: instant("2025-05-01T00:00:00Z"), to: instant("2025-05-02T00:00:00Z")).map(\.id) == [a.id],
            "Query 4")
        #expect(try db.focus.current() == nil, "Query 5")
        try db.focus.start()
        clock.advance(by: 10)
        #expect(try db.focus.current()?.state == .active)
        #expect(try db.focus.dailyTotals(from: day("2025-05-01"), to: day("2025-05-03")).map(\.trees) == [1, 1])
        #expect(try db.focus.nextBreak().kind == .short)
    }

    @Test func bulkImportsKeepPerDayTotalsExactAndTheTriggersInPlace() throws {
        let (db, clock) = try makeStore(at: "2025-11-21T12:00:00Z", zone: "America/New_York")
        let ny = ZonedCalendar(identifier: "America/New_York")!
        try db.focus.log(start: instant("2025-11-20T10:00:00Z"), end: instant("2025-11-20T10:25:00Z"))
        let bulk = SyntheticHistory.sessions(count: AppDatabase.bulkThreshold + 1000, days: 400, lastDay: day("2025-11-20"), calendar: ny)
        try db.focus.insert(bulk)
        let all = try db.focus.all()
        #expect(all.count == bulk.count + 1)
        #expect(try db.focus.stats() == ForestStats.from(sessions: all, now: clock.now, calendar: ny))
        let triggers = try db.writer.read {
            try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'focus_session'")
        }
        #expect(triggers == 8)
        // The triggers still work after the bulk path.
        try db.focus.delete(id: bulk[0].id)
        #expect(try db.focus.stats() == ForestStats.from(sessions: try db.focus.all(), now: clock.now, calendar: ny))
    }
}
