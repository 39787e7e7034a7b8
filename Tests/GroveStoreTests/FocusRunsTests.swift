import Foundation
import GRDB
import GroveCore
import Testing

@testable import GroveStore

/// Stats of the whole history kept as sessions change (`focus_total`, `focus_run`): under any sequence
/// of changes they say what a full read of the days says, and reading them does not grow with the days.
@Suite("Stats kept as sessions change")
struct FocusRunsTests {
    static func store(now: String, zone: String) throws -> AppDatabase {
        let clock = TestClock(try #require(ISO8601DateFormatter().date(from: now)))
        return try AppDatabase.inMemory(environment: .test(clock: clock, zone: TimeZone(identifier: zone) ?? .current))
    }

    /// What a full read of `focus_day` says: the runs, the sums and the streaks by `Streaks`.
    static func reference(_ db: AppDatabase) throws -> (runs: [[Int]], totals: [Int64], current: Int, longest: Int) {
        let calendar = try db.calendar()
        let today = calendar.localDay(of: db.environment.now())
        return try db.writer.read { db in
            let numbers = try Int.fetchAll(
                db, sql: "SELECT CAST(julianday(day) - 2440587.5 AS INTEGER) FROM focus_day WHERE trees > 0 ORDER BY day")
            var runs: [[Int]] = []
            for n in numbers {
                if let last = runs.last, last[1] == n - 1 { runs[runs.count - 1][1] = n } else { runs.append([n, n]) }
            }
            let row = try #require(
                try Row.fetchOne(
                    db,
                    sql:
                        "SELECT coalesce(sum(trees),0), coalesce(sum(abandoned),0), coalesce(sum(focus_ms),0), count(*) FILTER (WHERE trees > 0) FROM focus_day"
                ))
            let days = numbers.map(LocalDay.init(dayNumber:))
            return (
                runs, [row[0], row[1], row[2], row[3]],
                Streaks.current(sortedDistinct: days, today: today, calendar: calendar),
                Streaks.longest(sortedDistinct: days, calendar: calendar)
            )
        }
    }

    static func kept(_ db: AppDatabase) throws -> (runs: [[Int]], totals: [Int64]) {
        try db.writer.read { db in
            let runs = try Row.fetchAll(db, sql: "SELECT start_day, end_day FROM focus_run ORDER BY start_day").map {
                [$0[0] as Int, $0[1] as Int]
            }
            let row = try #require(try Row.fetchOne(db, sql: "SELECT trees, abandoned, focus_ms, tree_days FROM focus_total"))
            return (runs, [row[0], row[1], row[2], row[3]])
        }
    }

    @Test("any sequence of days gaining and losing trees keeps the runs and sums a full read finds", arguments: [1, 2, 3, 4])
    func randomChanges(seed: UInt64) throws {
        let db = try Self.store(now: "2026-03-15T12:00:00Z", zone: "Europe/Berlin")
        var random = SeededRandom(seed: seed)
        for step in 0..<400 {
            let day = LocalDay(dayNumber: 20_500 + Int(random.next() % 40))
            let trees = Int(random.next() % 3), abandoned = Int(random.next() % 2)
            try db.writer.write { db in
                if random.next() % 4 == 0 {
                    try db.execute(sql: "DELETE FROM focus_day WHERE day = ?", arguments: [day.description])
                } else {
                    try db.execute(
                        sql: """
                            INSERT INTO focus_day (day, trees, abandoned, focus_ms) VALUES (?1, ?2, ?3, ?2 * 1500000)
                            ON CONFLICT (day) DO UPDATE SET trees = ?2, abandoned = ?3, focus_ms = ?2 * 1500000
                            """, arguments: [day.description, trees, abandoned])
                }
            }
            let expected = try Self.reference(db), got = try Self.kept(db)
            #expect(got.runs == expected.runs && got.totals == expected.totals, "step \(step)")
            if got.runs != expected.runs || got.totals != expected.totals { return }
            let stats = try db.focus.stats()
            #expect(stats.currentStreak == expected.current && stats.longestStreak == expected.longest, "step \(step)")
            #expect(stats.daysWithTrees == Int(expected.totals[3]) && stats.totalTrees == Int(expected.totals[0]))
        }
    }

    @Test("a streak goes on across a day that never happened in the zone (Apia, 2011-12-30)")
    func apia() throws {
        let db = try Self.store(now: "2011-12-31T22:00:00Z", zone: "Pacific/Apia")
        // Trees on the 27th, 28th, 29th (before the jump) and the 31st (after): one run of four.
        for (start, end) in [
            ("2011-12-27T20:00:00Z", "2011-12-27T20:25:00Z"), ("2011-12-28T20:00:00Z", "2011-12-28T20:25:00Z"),
            ("2011-12-29T20:00:00Z", "2011-12-29T20:25:00Z"), ("2011-12-30T20:00:00Z", "2011-12-30T20:25:00Z"),
        ] {
            let formatter = ISO8601DateFormatter()
            _ = try db.focus.log(start: try #require(formatter.date(from: start)), end: try #require(formatter.date(from: end)))
        }
        let expected = try Self.reference(db)
        let stats = try db.focus.stats()
        #expect(expected.longest == 4 && expected.current == 4, "\(expected)")
        #expect(stats.longestStreak == 4 && stats.currentStreak == 4, "\(stats)")
    }

    @Test("stats read the same number of rows at 20,000 days as at 1,000")
    func flat() throws {
        var steps: [Int64] = []
        for days in [1_000, 20_000] {
            let db = try Self.store(now: "2026-03-15T12:00:00Z", zone: "UTC")
            try db.writer.write { db in
                // Every day but each tenth, up to today (2026-03-15 is day 20,527).
                try db.execute(
                    sql: """
                        WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?)
                        INSERT INTO focus_day (day, trees, abandoned, focus_ms)
                        SELECT date('2026-03-15', '-' || i || ' days'), 2, 0, 3000000 FROM n WHERE i % 10 <> 3
                        """, arguments: [days])
            }
            let stats = try db.focus.stats()
            #expect(stats.currentStreak == 3 && stats.longestStreak == 9, "\(stats)")
            steps.append(try SQLiteWork.of(db) { _ = try db.focus.stats() })
        }
        #expect(steps[1] <= steps[0] + 20, "steps at 1,000 and 20,000 days: \(steps)")
    }
}
