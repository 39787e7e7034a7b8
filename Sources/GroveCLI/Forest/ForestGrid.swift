import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// The forest as rows of trees, one row per day, newest day first: each session's tree as the web
/// draws it (`TreeLook`: a seedling, a conifer or a broadleaf; fallen leaves where one was given up).
enum ForestGrid {
    /// Trees (newest first) grouped into their days.
    static func render(_ trees: [FocusSession], width: Int) -> String {
        var byDay: [(LocalDay, [FocusSession])] = []
        for tree in trees {
            guard let day = tree.endDay else { continue }
            if byDay.last?.0 == day { byDay[byDay.count - 1].1.append(tree) } else { byDay.append((day, [tree])) }
        }
        return render(days: byDay, width: width)
    }

    /// Days (newest first) and their sessions, completed and abandoned, in the order they ended; `more`:
    /// each day's trees not drawn (`ForestWindow.treesDrawnPerDay`), said as "+N more" after its last row.
    static func render(days: [(LocalDay, [FocusSession])], width: Int, more: [LocalDay: Int] = [:]) -> String {
        var lines: [String] = []
        let perRow = max(4, (width - 12) / 2)  // each glyph takes two cells
        for (day, sessions) in days {
            let glyphs = sessions.sorted { ($0.endTime ?? .distantPast) < ($1.endTime ?? .distantPast) }.map { TreeLook($0).glyph }
            var start = 0
            while start < glyphs.count {
                let row = glyphs[start..<min(glyphs.count, start + perRow)].joined()
                lines.append("\(start == 0 ? day.description : String(repeating: " ", count: 10))  \(row)")
                start += perRow
            }
            if let extra = more[day], extra > 0, !lines.isEmpty { lines[lines.count - 1] += "  +\(extra) more" }
        }
        return lines.joined(separator: "\n")
    }
}
