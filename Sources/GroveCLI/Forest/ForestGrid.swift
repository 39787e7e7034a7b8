import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// The forest as rows of trees, one row per day, newest day first.
enum ForestGrid {
    /// Trees (newest first) grouped into their days.
    static func render(_ trees: [FocusSession], width: Int) -> String {
        var byDay: [(LocalDay, Int)] = []
        for tree in trees {
            guard let day = tree.endDay else { continue }
            if byDay.last?.0 == day { byDay[byDay.count - 1].1 += 1 } else { byDay.append((day, 1)) }
        }
        return render(days: byDay, width: width)
    }

    /// Days (newest first) and how many trees each has.
    static func render(days: [(LocalDay, Int)], width: Int) -> String {
        var lines: [String] = []
        let perRow = max(4, (width - 12) / 2)  // each 🌳 takes two cells
        for (day, count) in days {
            var remaining = count
            var first = true
            while remaining > 0 {
                let n = min(perRow, remaining)
                lines.append("\(first ? day.description : String(repeating: " ", count: 10))  \(String(repeating: "🌳", count: n))")
                remaining -= n
                first = false
            }
        }
        return lines.joined(separator: "\n")
    }
}
