import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// A contribution-graph style year: one column per week, one row per weekday.
enum Heatmap {
    static func render(_ heatmap: YearHeatmap, width: Int, style: Style) -> String {
        let shown = min(heatmap.weeks, max(4, width - 6))
        let firstWeek = heatmap.weeks - shown
        let levels = [" ", "░", "▒", "▓", "█"]
        var grid = Array(repeating: Array(repeating: " ", count: shown), count: 7)
        for cell in heatmap.cells where cell.week >= firstWeek {
            grid[cell.row][cell.week - firstWeek] = cell.trees == 0 ? style.dim("·") : style.green(levels[cell.level])
        }
        // The months along the top, each above the column holding its 1st (the same labels as the web's).
        var top = Array(repeating: Character(" "), count: shown)
        for label in heatmap.monthLabels where label.week >= firstWeek {
            let at = label.week - firstWeek
            guard at + label.name.count <= shown, top[max(0, at - 1)..<at + label.name.count].allSatisfy({ $0 == " " }) else { continue }
            top.replaceSubrange(at..<at + label.name.count, with: label.name)
        }
        while top.last == " " { top.removeLast() }
        var rows = ["     " + String(top)]
        rows += (0..<7).map { row in Weekday(wrapping: heatmap.firstWeekday + row).shortName + "  " + grid[row].joined() }
        rows.append("     " + style.dim("· none  ░ 1  ▒ 2  ▓ 3  █ 4+ trees"))
        return rows.joined(separator: "\n")
    }
}
