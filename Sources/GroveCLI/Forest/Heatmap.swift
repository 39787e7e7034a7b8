import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// A contribution-graph style year: one column per week, one row per weekday.
enum Heatmap {
    static func render(_ days: [DailyFocusTotals], from start: LocalDay, to end: LocalDay, firstWeekday: Int, width: Int, style: Style) -> String {
        let trees = Dictionary(days.map { ($0.day, $0.trees) }, uniquingKeysWith: +)
        let weeks = start.days(to: end) / 7 + 1
        let shown = min(weeks, max(4, (width - 6)))
        let firstWeek = weeks - shown
        let levels = [" ", "░", "▒", "▓", "█"]
        var rows: [String] = []
        for row in 0..<7 {
            var line = Weekday(wrapping: firstWeekday + row).shortName + "  "
            for week in firstWeek..<weeks {
                let day = start.adding(days: week * 7 + row)
                if day > end { line += " "; continue }
                let n = trees[day] ?? 0
                let cell = n == 0 ? "·" : levels[min(4, n)]
                line += n == 0 ? style.dim(cell) : style.green(cell)
            }
            rows.append(line)
        }
        rows.append("     " + style.dim("· none  ░ 1  ▒ 2  ▓ 3  █ 4+ trees"))
        return rows.joined(separator: "\n")
    }
}
