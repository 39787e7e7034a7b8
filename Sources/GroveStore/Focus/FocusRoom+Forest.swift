import Foundation
import GRDB
import GroveCore

extension FocusRoom {
    /// Up to `days` days with trees before `before` (all days when nil), newest first, read from the
    /// per-day totals; with `sessions`, each day's newest trees too (at most
    /// `ForestWindow.treesDrawnPerDay` a day, one indexed range each). With `tag`, only the trees of
    /// sessions carrying it (the per-day-per-tag totals).
    public func forest(days: Int = ForestWindow.defaultDays, before: LocalDay? = nil, sessions: Bool = true, tag: String? = nil)
        throws -> ForestWindow
    {
        let source = try DayTotals(tag: tag)
        guard ForestWindow.dayRange.contains(days) else {
            throw InvalidField("days", "days must be between \(ForestWindow.dayRange.lowerBound) and \(ForestWindow.dayRange.upperBound)")
        }
        try settle()
        return try writer.snapshotRead { db in
            // One more day than shown says whether there is anything older.
            var rows = try db.cachedRows(
                """
                SELECT day, sum(trees), sum(abandoned) FROM \(source.table)
                WHERE \(source.condition(parameter: 3)) AND (trees > 0 OR abandoned > 0) AND day < ?1
                GROUP BY day ORDER BY day DESC LIMIT ?2
                """, [before?.description ?? "9999-12-31", days + 1, source.tag])
            let hasOlder = rows.count > days
            if hasOlder { rows.removeLast() }
            var window = ForestWindow(
                days: rows.compactMap { row in
                    LocalDay(row[0] as String).map { ForestWindow.Day(day: $0, trees: row[1], abandoned: row[2]) }
                }, older: nil)
            if hasOlder { window.older = window.days.last?.day }
            guard sessions else { return window }
            // Each day's newest trees, at most `treesDrawnPerDay`, one range of the (end_day, end_time)
            // index per day: the window costs its days, never the sessions of a crowded day.
            let statement = try db.cachedStatement(
                sql: """
                    SELECT * FROM focus_session
                    WHERE end_day = ?1 AND +state IN ('completed', 'abandoned')
                      -- Any spelling of the tag: lower() folds as `FocusTags.folded` does (ASCII).
                      AND (?2 IS NULL OR EXISTS (SELECT 1 FROM json_each(tags) WHERE lower(value) = lower(?2)))
                    ORDER BY end_time DESC, id DESC LIMIT ?3
                    """)
            for index in window.days.indices {
                let day = try FocusSessionRecord.fetchAll(
                    statement, arguments: [window.days[index].day.description, source.tag, ForestWindow.treesDrawnPerDay]
                )
                .map { try $0.model() }
                window.days[index].sessions = day.filter { $0.state == .completed }
                window.days[index].withered = day.filter { $0.state == .abandoned }
            }
            return window
        }
    }
}
