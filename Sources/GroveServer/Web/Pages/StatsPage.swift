import Foundation
import GroveCore
import GroveStore
import HTTPTypes
import Hummingbird

struct HeatmapCell: Encodable { var x: Int; var y: Int; var level: Int; var title: String }

struct MinutesBar: Encodable { var x: Int; var y: Int; var height: Int; var minutes: Int; var label: String; var tick: String }

struct RowLabel: Encodable { var y: Int; var name: String }

struct ColumnLabel: Encodable { var x: Int; var name: String }

struct StatsPage: Encodable {
    var title: String
    var bare = false
    var tag: String?
    var tagFilter: TagFilterView?
    var stats: StatsView
    var cells: [HeatmapCell]
    var bars: [MinutesBar]
    var rowLabels: [RowLabel]
    var monthLabels: [ColumnLabel]
    var maxMinutes: Int
    var heatmapWidth: Int
}

extension WebController {
    func stats(tag: String?) throws -> StatsPage {
        let stats = try database.focus.stats(tag: tag)
        // Year heatmap: one column per week, one row per weekday.
        let heatmap = try database.focus.yearHeatmap(tag: tag)
        let cells = heatmap.cells.map { cell in
            HeatmapCell(
                x: 24 + cell.week * 13, y: 16 + cell.row * 13, level: cell.level,
                title: "\(cell.day): \(cell.trees) tree\(cell.trees == 1 ? "" : "s")")
        }
        // Today read once: the `today` property reads the configured calendar from the store.
        let today = heatmap.end
        let daily = try database.focus.dailyTotals(from: today.adding(days: -29), to: today, tag: tag)
        let byDay = Dictionary(daily.map { ($0.day, $0) }, uniquingKeysWith: { a, _ in a })
        // Focus minutes per day, last 30 days.
        let maxMinutes = max(1, (0..<30).map { Int((byDay[today.adding(days: -$0)]?.focusTime ?? 0) / 60) }.max() ?? 1)
        let bars = (0..<30).map { i -> MinutesBar in
            let d = today.adding(days: i - 29)
            let minutes = Int((byDay[d]?.focusTime ?? 0) / 60)
            let height = minutes * 120 / maxMinutes
            return MinutesBar(
                x: 30 + i * 22, y: 140 - height, height: height, minutes: minutes, label: d.description,
                tick: i % 7 == 1 ? String(d.description.suffix(5)) : "")
        }
        let rowLabels = (0..<7).filter { $0 % 2 == 1 }.map {
            RowLabel(y: 26 + $0 * 13, name: Weekday(wrapping: heatmap.firstWeekday + $0).shortName)
        }
        let monthLabels = heatmap.monthLabels.map { ColumnLabel(x: 24 + $0.week * 13, name: $0.name) }
        return StatsPage(
            title: tag.map { "Stats · \($0)" } ?? "Stats", tag: tag, tagFilter: try tagFilter(tag), stats: statsView(stats), cells: cells,
            bars: bars, rowLabels: rowLabels, monthLabels: monthLabels, maxMinutes: maxMinutes,
            heatmapWidth: 24 + heatmap.weeks * 13)
    }
}
