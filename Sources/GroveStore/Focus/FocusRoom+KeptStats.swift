import Foundation
import GRDB
import GroveCore

extension FocusRoom {
    /// ForestStats of every session from what the store keeps as sessions change (`v30FocusRuns`):
    /// the totals' one row, today's totals, the run holding today or yesterday and the longest run —
    /// a handful of index reads, the same at 20,000 days as at 10.
    func keptStats() throws -> ForestStats {
        try writer.snapshotRead { db in
            let calendar = try calendar(db)
            let today = calendar.localDay(of: environment.now())
            let totals = try db.cachedRow("SELECT trees, abandoned, focus_ms, tree_days FROM focus_total")
            let todays = try db.cachedRow("SELECT trees, focus_ms FROM focus_day WHERE day = ?", [today.description])
            func run(_ sql: String, _ arguments: StatementArguments) throws -> (start: Int, end: Int)? {
                try db.cachedRow(sql, arguments).map { ($0[0] as Int, $0[1] as Int) }
            }
            func runBefore(_ day: Int) throws -> (start: Int, end: Int)? {
                try run("SELECT start_day, end_day FROM focus_run WHERE end_day < ? ORDER BY end_day DESC LIMIT 1", [day])
            }
            // The current streak: the run holding the latest day with trees up to today, alive when that
            // day is today or the day before; it goes on across days that never happened in the zone.
            var current = 0
            if let latestRun = try run(
                "SELECT start_day, end_day FROM focus_run WHERE start_day <= ? ORDER BY start_day DESC LIMIT 1", [today.dayNumber])
            {
                let latest = min(latestRun.end, today.dayNumber)
                if latest == today.dayNumber || calendar.areConsecutive(LocalDay(dayNumber: latest), today) {
                    current = latest - latestRun.start + 1
                    var start = latestRun.start
                    while let previous = try runBefore(start),
                        calendar.areConsecutive(LocalDay(dayNumber: previous.end), LocalDay(dayNumber: start))
                    {
                        current += previous.end - previous.start + 1
                        start = previous.start
                    }
                }
            }
            // The longest: one read of the length index, then runs joined across days that never happened.
            var longest =
                try Int.fetchOne(
                    db.cachedStatement(sql: "SELECT end_day - start_day + 1 FROM focus_run ORDER BY end_day - start_day DESC LIMIT 1")) ?? 0
            if let first = try Int.fetchOne(db.cachedStatement(sql: "SELECT min(start_day) FROM focus_run")),
                let last = try Int.fetchOne(db.cachedStatement(sql: "SELECT max(end_day) FROM focus_run"))
            {
                var carried: (end: Int, length: Int)?
                for skipped in calendar.skippedDays(from: LocalDay(dayNumber: first), through: LocalDay(dayNumber: last)) {
                    guard let left = try runBefore(skipped.dayNumber),
                        let right = try run(
                            "SELECT start_day, end_day FROM focus_run WHERE start_day > ? ORDER BY start_day LIMIT 1", [skipped.dayNumber]),
                        calendar.areConsecutive(LocalDay(dayNumber: left.end), LocalDay(dayNumber: right.start))
                    else { continue }
                    let leftLength = carried.flatMap { $0.end == left.end ? $0.length : nil } ?? left.end - left.start + 1
                    let joined = leftLength + right.end - right.start + 1
                    longest = max(longest, joined)
                    carried = (right.end, joined)
                }
            }
            let trees = totals.map { $0[0] as Int } ?? 0, abandoned = totals.map { $0[1] as Int } ?? 0
            let total = trees + abandoned
            return ForestStats(
                totalTrees: trees, totalFocusTime: TimeInterval(groveMillis: totals.map { $0[2] as Int64 } ?? 0), totalSessions: total,
                todaysTrees: todays.map { $0[0] as Int } ?? 0,
                todaysFocusTime: TimeInterval(groveMillis: todays.map { $0[1] as Int64 } ?? 0),
                currentStreak: current, longestStreak: longest, abandonedCount: abandoned,
                completionRate: total > 0 ? Double(trees) / Double(total) * 100 : 0, daysWithTrees: totals.map { $0[3] as Int } ?? 0)
        }
    }
}
