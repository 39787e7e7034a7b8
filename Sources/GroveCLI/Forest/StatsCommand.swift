import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// `grove stats`: every ForestStats field, a year heatmap and this week by day.
struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats", abstract: "Totals, streaks, a year heatmap and this week by day.",
        discussion:
            "  grove stats\n  grove stats --tag essay     # only the sessions tagged essay\n  grove stats --json | jq .currentStreak")
    @OptionGroup var options: GlobalOptions
    @OptionGroup var filter: TagFilter

    struct Report: Encodable {
        var stats: ForestStats
        var week: [DailyFocusTotals]
        var year: [DailyFocusTotals]
    }

    func run() throws { try Self.run(options.plain, tag: try filter.checked()) }

    /// The figures, for whichever parse made the command (`EverydayParse.immediate`: every session).
    static func run(_ options: PlainOptions, tag: String? = nil) throws {
        let db = try options.open()
        let stats = try db.focus.stats(tag: tag)
        let calendar = try db.calendar()
        let today = calendar.localDay(of: db.environment.now())
        let weekStart = calendar.startOfWeek(containing: today)
        let yearStart = YearHeatmap.start(today: today, firstWeekday: calendar.firstWeekday)
        let year = try db.focus.dailyTotals(from: yearStart, to: today, tag: tag)
        let week = (0..<7).map { offset -> DailyFocusTotals in
            let day = weekStart.adding(days: offset)
            return year.first { $0.day == day } ?? DailyFocusTotals(day: day, trees: 0, abandoned: 0, focusTime: 0)
        }
        if options.json { return try Output.json(Report(stats: stats, week: week, year: year)) }
        let traits = TerminalTraits.current()
        let style = Style(traits)
        print(style.bold(tag.map { "Forest · \($0)" } ?? "Forest"))
        print("  Trees          \(stats.totalTrees)   (today \(stats.todaysTrees))")
        print(
            "  Focus time     \(stats.formattedTotalFocusTime)   (\(String(format: "%.1f", stats.totalFocusHours)) h; today \(ForestStats.formatDuration(stats.todaysFocusTime)))"
        )
        print(
            "  Sessions       \(stats.totalSessions)   (abandoned \(stats.abandonedCount), completion \(String(format: "%.0f", stats.completionRate))%)"
        )
        print("  Streak         \(stats.currentStreak) day\(stats.currentStreak == 1 ? "" : "s")   (longest \(stats.longestStreak))")
        print(
            "  Per day        \(String(format: "%.1f", stats.averageSessionsPerDay)) trees on days with trees (\(stats.daysWithTrees) day\(stats.daysWithTrees == 1 ? "" : "s"))"
        )
        print("")
        print(style.bold("Last 12 months"))
        // The year's totals are already read for the week above: the grid is drawn from them.
        print(
            Heatmap.render(YearHeatmap(totals: year, today: today, firstWeekday: calendar.firstWeekday), width: traits.width, style: style))
        print("")
        print(style.bold("This week"))
        let maxMinutes = max(1, week.map { Int($0.focusTime / 60) }.max() ?? 1)
        for d in week {
            let minutes = Int(d.focusTime / 60)
            let bar = String(repeating: "█", count: max(0, minutes * max(1, min(30, traits.width - 30)) / maxMinutes))
            print(
                "  \(Weekday(wrapping: d.day.weekday).shortName) \(d.day.description.suffix(5))  \(style.green(bar))\(bar.isEmpty ? "" : " ")\(minutes)m, \(d.trees) 🌳"
            )
        }
    }
}
