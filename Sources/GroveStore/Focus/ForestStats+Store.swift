import Foundation
import GroveCore

extension ForestStats {
    /// Stats from the store's SQL totals and the sorted, distinct days that had trees.
    init(
        totalTrees: Int, totalFocusMillis: Int64, abandonedCount: Int, todaysTrees: Int, todaysFocusMillis: Int64,
        sortedTreeDays: [LocalDay], today: LocalDay, calendar: ZonedCalendar
    ) {
        let total = totalTrees + abandonedCount
        self.init(
            totalTrees: totalTrees, totalFocusTime: TimeInterval(groveMillis: totalFocusMillis), totalSessions: total,
            todaysTrees: todaysTrees, todaysFocusTime: TimeInterval(groveMillis: todaysFocusMillis),
            currentStreak: Streaks.current(sortedDistinct: sortedTreeDays, today: today, calendar: calendar),
            longestStreak: Streaks.longest(sortedDistinct: sortedTreeDays, calendar: calendar),
            abandonedCount: abandonedCount, completionRate: total > 0 ? Double(totalTrees) / Double(total) * 100 : 0,
            daysWithTrees: sortedTreeDays.count)
    }
}
