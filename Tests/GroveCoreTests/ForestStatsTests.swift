import Foundation
import Testing

@testable import GroveCore

@Suite("ForestStats and streaks")
struct ForestStatsTests {
    @Test func noSessionsGivesZeroesEverywhere() {
        let stats = ForestStats.from(sessions: [], now: instant("2025-05-01T12:00:00Z"), calendar: utc)
        #expect(stats == .empty)
        #expect(stats.averageSessionsPerDay == 0)
        #expect(stats.completionRate == 0)
        #expect(stats.formattedTotalFocusTime == "0m")
    }

    @Test func onlyAbandonedSessionsPlantNoTrees() {
        let now = instant("2025-05-01T12:00:00Z")
        let stats = ForestStats.from(
            sessions: [abandoned(1, endingAt: now - 100, in: utc), abandoned(2, endingAt: now - 50, in: utc)], now: now, calendar: utc)
        #expect(stats.totalTrees == 0)
        #expect(stats.totalSessions == 2)
        #expect(stats.abandonedCount == 2)
        #expect(stats.completionRate == 0)
        #expect(stats.currentStreak == 0)
        #expect(stats.longestStreak == 0)
        #expect(stats.totalFocusTime == 0)
    }

    @Test func everyFieldAndComputedProperty() {
        let now = instant("2025-05-03T12:00:00Z")
        let sessions = [
            completed(1, endingAt: instant("2025-05-01T10:00:00Z"), in: utc),
            completed(2, endingAt: instant("2025-05-01T11:00:00Z"), minutes: 50, in: utc),
            completed(3, endingAt: instant("2025-05-03T09:00:00Z"), in: utc),
            abandoned(4, endingAt: instant("2025-05-03T10:00:00Z"), in: utc),
        ]
        let stats = ForestStats.from(sessions: sessions, now: now, calendar: utc)
        #expect(stats.totalTrees == 3)
        #expect(stats.totalFocusTime == 100 * 60)
        #expect(stats.totalSessions == 4)
        #expect(stats.todaysTrees == 1)
        #expect(stats.todaysFocusTime == 1500)
        #expect(stats.currentStreak == 1)
        #expect(stats.longestStreak == 1)
        #expect(stats.abandonedCount == 1)
        #expect(stats.completionRate == 75)
        #expect(stats.totalFocusHours == 100.0 / 60)
        #expect(stats.formattedTotalFocusTime == "1h 40m")
        // DESIGN.md: trees per day that had at least one tree (3 trees over 2 days), not trees / streak.
        #expect(stats.daysWithTrees == 2)
        #expect(stats.averageSessionsPerDay == 1.5)
    }

    @Test func streakStaysAliveUntilMidnightAndDiesAfter() {
        let sessions = (1...3).map { completed($0, endingAt: instant("2025-05-0\($0)T20:00:00Z"), in: utc) }
        // On the 4th before any session: the run ending yesterday still counts.
        #expect(ForestStats.from(sessions: sessions, now: instant("2025-05-04T23:59:59Z"), calendar: utc).currentStreak == 3)
        // On the 5th: broken.
        #expect(ForestStats.from(sessions: sessions, now: instant("2025-05-05T00:00:00Z"), calendar: utc).currentStreak == 0)
        #expect(ForestStats.from(sessions: sessions, now: instant("2025-05-05T00:00:00Z"), calendar: utc).longestStreak == 3)
    }

    @Test func gapsSplitRunsAndTheLongestIsRemembered() {
        let days = ["2025-01-01", "2025-01-02", "2025-01-03", "2025-01-04", "2025-01-10", "2025-01-11", "2025-01-20"]
        let sessions = days.enumerated().map { completed($0.offset, endingAt: instant("\($0.element)T12:00:00Z"), in: utc) }
        let stats = ForestStats.from(sessions: sessions, now: instant("2025-01-21T08:00:00Z"), calendar: utc)
        #expect(stats.longestStreak == 4)
        #expect(stats.currentStreak == 1)
        #expect(Streaks.current(days: days.map(day), today: day("2025-01-12"), calendar: utc) == 2)
        #expect(Streaks.current(days: days.map(day), today: day("2025-01-13"), calendar: utc) == 0)
    }

    @Test func severalSessionsOnOneDayCountOnce() {
        let sessions = (0..<5).map { completed($0, endingAt: instant("2025-01-01T1\($0):00:00Z"), in: utc) }
        let stats = ForestStats.from(sessions: sessions, now: instant("2025-01-01T20:00:00Z"), calendar: utc)
        #expect(stats.currentStreak == 1)
        #expect(stats.todaysTrees == 5)
        #expect(stats.averageSessionsPerDay == 5)
    }

    @Test func aSessionThatCompletedWhileNobodyWatchedCountsOnTheDayItEnded() throws {
        // Started at 23:50 on the 1st, 25 minutes long, first looked at two days later.
        let open = try FocusSession.start(id: uuid(9), at: instant("2025-05-01T23:50:00Z"), plannedDuration: 1500, timeZone: utc.timeZone)
        let stats = ForestStats.from(sessions: [open], now: instant("2025-05-03T08:00:00Z"), calendar: utc)
        #expect(stats.totalTrees == 1)
        #expect(stats.totalFocusTime == 1500)
        #expect(stats.todaysTrees == 0)
        #expect(stats.longestStreak == 1)
        #expect(stats.currentStreak == 1, "it ended on the 2nd, which is yesterday on the 3rd")
    }

    @Test func aRunningSessionCountsNowhereYet() throws {
        let open = try FocusSession.start(id: uuid(9), at: instant("2025-05-01T10:00:00Z"), timeZone: utc.timeZone)
        let stats = ForestStats.from(sessions: [open], now: instant("2025-05-01T10:10:00Z"), calendar: utc)
        #expect(stats == .empty)
    }

    @Test func statsFromDailyTotalsMatchStatsFromSessions() {
        var sessions: [FocusSession] = []
        for i in 0..<200 {
            let end = instant("2025-01-01T00:00:00Z").addingTimeInterval(TimeInterval(i) * 20_000)
            sessions.append(i % 7 == 3 ? abandoned(i, endingAt: end, in: newYork) : completed(i, endingAt: end, in: newYork))
        }
        let now = instant("2025-02-16T15:00:00Z")
        let direct = ForestStats.from(sessions: sessions, now: now, calendar: newYork)
        var byDay: [LocalDay: DailyFocusTotals] = [:]
        for s in sessions {
            var t = byDay[s.endDay!] ?? DailyFocusTotals(day: s.endDay!, trees: 0, abandoned: 0, focusTime: 0)
            if s.state == .completed { t.trees += 1; t.focusTime += s.duration } else { t.abandoned += 1 }
            byDay[s.endDay!] = t
        }
        #expect(ForestStats.from(daily: Array(byDay.values), today: newYork.localDay(of: now), calendar: newYork) == direct)
    }

    @Test func statsEncodeWithTheSeedsFieldNames() throws {
        let stats = ForestStats.from(
            sessions: [completed(1, endingAt: instant("2025-05-01T10:00:00Z"), in: utc)], now: instant("2025-05-01T11:00:00Z"),
            calendar: utc)
        let json = try #require(String(data: JSONEncoder().encode(stats), encoding: .utf8))
        for key in [
            "totalTrees", "totalFocusTime", "totalSessions", "todaysTrees", "todaysFocusTime", "currentStreak", "longestStreak",
            "abandonedCount", "completionRate", "totalFocusHours", "averageSessionsPerDay", "formattedTotalFocusTime",
        ] {
            #expect(json.contains("\"\(key)\""))
        }
        #expect(try JSONDecoder().decode(ForestStats.self, from: JSONEncoder().encode(stats)) == stats)
    }
}

@Suite("Streaks across DST and travel (DESIGN.md matrix)")
struct StreakMatrixTests {
    /// Sessions ending at the same local wall time on consecutive local days.
    func nightly(_ days: [String], at wall: TimeOfDay, in calendar: ZonedCalendar) -> [FocusSession] {
        days.enumerated().map { completed($0.offset, endingAt: calendar.instant(of: day($0.element), at: wall), in: calendar) }
    }

    @Test func newYorkSpringForward2025() {
        let sessions = nightly(
            ["2025-03-07", "2025-03-08", "2025-03-09", "2025-03-10", "2025-03-11"], at: TimeOfDay(hour: 23, minute: 30)!, in: newYork)
        #expect(sessions.map { $0.endDay!.description } == ["2025-03-07", "2025-03-08", "2025-03-09", "2025-03-10", "2025-03-11"])
        let stats = ForestStats.from(sessions: sessions, now: instant("2025-03-12T04:00:00Z"), calendar: newYork)  // 00:00 EDT on the 12th
        #expect(stats.currentStreak == 5)
        #expect(stats.longestStreak == 5)
        #expect(ForestStats.from(sessions: sessions, now: instant("2025-03-13T04:00:00Z"), calendar: newYork).currentStreak == 0)
    }

    @Test func newYorkFallBack2025() {
        let sessions = nightly(["2025-10-31", "2025-11-01", "2025-11-02", "2025-11-03"], at: TimeOfDay(hour: 0, minute: 30)!, in: newYork)
        // 23:59 EST on Nov 3 is still "today" with a session.
        let stats = ForestStats.from(sessions: sessions, now: instant("2025-11-04T04:59:00Z"), calendar: newYork)
        #expect(stats.currentStreak == 4)
        #expect(stats.todaysTrees == 1)
    }

    @Test func lordHoweHalfHourTransitions() {
        let spring = nightly(["2025-10-03", "2025-10-04", "2025-10-05", "2025-10-06"], at: TimeOfDay(hour: 23, minute: 50)!, in: lordHowe)
        #expect(
            ForestStats.from(
                sessions: spring, now: lordHowe.instant(of: day("2025-10-07"), at: TimeOfDay(hour: 8, minute: 0)!), calendar: lordHowe
            ).currentStreak == 4)
        let autumn = nightly(["2025-04-05", "2025-04-06", "2025-04-07"], at: TimeOfDay(hour: 0, minute: 10)!, in: lordHowe)
        #expect(
            ForestStats.from(
                sessions: autumn, now: lordHowe.instant(of: day("2025-04-07"), at: TimeOfDay(hour: 23, minute: 0)!), calendar: lordHowe
            ).longestStreak == 3)
    }

    @Test func apiaTheDayThatNeverHappenedDoesNotBreakAStreak() {
        let sessions = [
            completed(1, endingAt: apia.instant(of: day("2011-12-28"), at: TimeOfDay(hour: 12, minute: 0)!), in: apia),
            completed(2, endingAt: apia.instant(of: day("2011-12-29"), at: TimeOfDay(hour: 12, minute: 0)!), in: apia),
            completed(3, endingAt: apia.instant(of: day("2011-12-31"), at: TimeOfDay(hour: 12, minute: 0)!), in: apia),
        ]
        #expect(sessions.map { $0.endDay!.description } == ["2011-12-28", "2011-12-29", "2011-12-31"])
        let stats = ForestStats.from(
            sessions: sessions, now: apia.instant(of: day("2011-12-31"), at: TimeOfDay(hour: 20, minute: 0)!), calendar: apia)
        #expect(stats.currentStreak == 3)
        #expect(stats.longestStreak == 3)
    }

    @Test func travellingFromUTCPlus14ToUTCMinus12KeepsEachSessionOnTheDayItWasLived() {
        let plus14 = zone("Etc/GMT-14"), minus12 = zone("Etc/GMT+12")
        // Flying west: the second session ends 23 hours later in absolute time but on an earlier local day.
        let first = completed(1, endingAt: instant("2025-06-01T11:00:00Z"), in: plus14)  // 2025-06-02 01:00 local
        let second = completed(2, endingAt: instant("2025-06-02T10:00:00Z"), in: minus12)  // 2025-06-01 22:00 local
        #expect(first.endDay == day("2025-06-02"))
        #expect(second.endDay == day("2025-06-01"))
        // 06-02 01:00 at −12
        let stats = ForestStats.from(sessions: [first, second], now: instant("2025-06-02T13:00:00Z"), calendar: minus12)
        #expect(stats.currentStreak == 2)
        #expect(stats.todaysTrees == 1)
        // Flying east: 06-01 in UTC−12, then 06-02 in UTC+14 the next absolute day.
        let a = completed(3, endingAt: instant("2025-06-01T20:00:00Z"), in: minus12)  // 06-01 08:00
        let b = completed(4, endingAt: instant("2025-06-01T23:00:00Z"), in: plus14)  // 06-02 13:00
        #expect(ForestStats.from(sessions: [a, b], now: instant("2025-06-02T00:00:00Z"), calendar: plus14).currentStreak == 2)
    }
}
