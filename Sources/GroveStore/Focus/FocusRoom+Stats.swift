import Foundation
import GRDB
import GroveCore

extension FocusRoom {
    /// ForestStats, computed in SQL from per-day totals (one row per day, never one per session):
    /// totals are summed by SQLite; only the days with trees come back, as day numbers, for the streaks.
    /// With `tag`, the same over the sessions carrying it (the per-day-per-tag totals).
    public func stats(tag: String? = nil) throws -> ForestStats {
        let days = try DayTotals(tag: tag)
        try settle()
        if tag == nil { return try keptStats() }
        return try writer.snapshotRead { db in
            let calendar = try calendar(db)
            let today = calendar.localDay(of: environment.now())
            let totals = try db.cachedRow(
                """
                SELECT coalesce(sum(trees), 0), coalesce(sum(abandoned), 0), coalesce(sum(focus_ms), 0),
                       coalesce(sum(CASE WHEN day = ?1 THEN trees END), 0), coalesce(sum(CASE WHEN day = ?1 THEN focus_ms END), 0)
                FROM \(days.table) WHERE \(days.condition(parameter: 2))
                """, [today.description, days.tag])
            // julianday() of a YYYY-MM-DD is an exact .5; 2440587.5 is 1970-01-01.
            var treeDays: [LocalDay] = []
            let cursor = try Int.fetchCursor(
                db.cachedStatement(
                    sql: """
                        SELECT DISTINCT CAST(julianday(day) - 2440587.5 AS INTEGER) FROM \(days.table) WHERE \(days.condition(parameter: 1)) AND trees > 0 ORDER BY day
                        """), arguments: [days.tag])
            while let number = try cursor.next() { treeDays.append(LocalDay(dayNumber: number)) }
            // Every column is coalesced, so an empty table still gives one row of zeros.
            func total(_ index: Int) -> Int64 { totals.flatMap { $0[index] as Int64? } ?? 0 }
            return ForestStats(
                totalTrees: Int(total(0)), totalFocusMillis: total(2), abandonedCount: Int(total(1)), todaysTrees: Int(total(3)),
                todaysFocusMillis: total(4), sortedTreeDays: treeDays, today: today, calendar: calendar)
        }
    }

    /// Per-day totals between two local days, inclusive (heatmaps, "this week"); with `tag`, of the
    /// sessions carrying it.
    public func dailyTotals(from: LocalDay, to: LocalDay, tag: String? = nil) throws -> [DailyFocusTotals] {
        let days = try DayTotals(tag: tag)
        return try writer.snapshotRead { db in
            try db.cachedRecords(
                FocusDayRecord.self,
                """
                SELECT day, sum(trees) AS trees, sum(abandoned) AS abandoned, sum(focus_ms) AS focus_ms FROM \(days.table)
                WHERE \(days.condition(parameter: 3)) AND day BETWEEN ?1 AND ?2 GROUP BY day ORDER BY day
                """, [from.description, to.description, days.tag]
            ).compactMap(\.totals)
        }
    }

    /// The last year of trees as a week-by-weekday grid, in the configured calendar (the CLI's and the
    /// web's stats heatmap).
    public func yearHeatmap(tag: String? = nil) throws -> YearHeatmap {
        let calendar = try database.calendar()
        let today = calendar.localDay(of: environment.now())
        let totals = try dailyTotals(from: YearHeatmap.start(today: today, firstWeekday: calendar.firstWeekday), to: today, tag: tag)
        return YearHeatmap(totals: totals, today: today, firstWeekday: calendar.firstWeekday)
    }

    /// The break the Pomodoro cycle calls for now: counted over today's trees.
    public func nextBreak() throws -> PomodoroBreak {
        let stats = try stats()
        return try preferences().breakAfter(completedInCycle: stats.todaysTrees)
    }
}
