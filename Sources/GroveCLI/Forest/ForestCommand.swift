import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// `grove forest`: every tree, newest first.
struct ForestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forest", abstract: "Show your forest: one tree per completed session, newest first.",
        discussion: "  grove forest\n  grove forest --limit 50 --json")
    @OptionGroup var options: GlobalOptions
    @Option(name: .long, help: "Show at most this many trees.") var limit: Int?

    func run() throws {
        if let limit, limit < 1 { throw InvalidField("limit", "limit must be at least 1") }
        let db = try options.open()
        let trees = try db.completedSessions(limit: limit)
        if options.json { return try Output.json(trees) }
        guard !trees.isEmpty else { return print("Your forest is empty. Plant the first tree with `grove focus`.") }
        print(ForestGrid.render(trees, width: TerminalTraits.current().width))
        let total = try db.forestStats().totalTrees
        print("\(total) tree\(total == 1 ? "" : "s")\(limit.map { $0 < total ? " (showing \($0))" : "" } ?? "")")
    }
}

/// The forest as rows of trees, one row per day, newest day first.
enum ForestGrid {
    static func render(_ trees: [FocusSession], width: Int) -> String {
        var lines: [String] = []
        var byDay: [(LocalDay, Int)] = []
        for tree in trees {
            guard let day = tree.endDay else { continue }
            if byDay.last?.0 == day { byDay[byDay.count - 1].1 += 1 } else { byDay.append((day, 1)) }
        }
        let perRow = max(4, (width - 12) / 2)  // each 🌳 takes two cells
        for (day, count) in byDay {
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

/// `grove stats`: every ForestStats field, a year heatmap and this week by day.
struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats", abstract: "Totals, streaks, a year heatmap and this week by day.",
        discussion: "  grove stats\n  grove stats --json | jq .currentStreak")
    @OptionGroup var options: GlobalOptions

    struct Report: Encodable {
        var stats: ForestStats
        var week: [DailyFocusTotals]
        var year: [DailyFocusTotals]
    }

    func run() throws {
        let db = try options.open()
        let stats = try db.forestStats()
        let calendar = try db.calendar()
        let today = calendar.localDay(of: db.environment.now())
        let weekStart = calendar.startOfWeek(containing: today)
        let yearStart = today.adding(days: -364).startOfWeek(firstWeekday: calendar.firstWeekday)
        let year = try db.dailyFocusTotals(from: yearStart, to: today)
        let week = (0..<7).map { offset -> DailyFocusTotals in
            let day = weekStart.adding(days: offset)
            return year.first { $0.day == day } ?? DailyFocusTotals(day: day, trees: 0, abandoned: 0, focusTime: 0)
        }
        if options.json { return try Output.json(Report(stats: stats, week: week, year: year)) }
        let traits = TerminalTraits.current()
        let style = Style(traits)
        print(style.bold("Forest"))
        print("  Trees          \(stats.totalTrees)   (today \(stats.todaysTrees))")
        print("  Focus time     \(stats.formattedTotalFocusTime)   (\(String(format: "%.1f", stats.totalFocusHours)) h; today \(ForestStats.formatDuration(stats.todaysFocusTime)))")
        print("  Sessions       \(stats.totalSessions)   (abandoned \(stats.abandonedCount), completion \(String(format: "%.0f", stats.completionRate))%)")
        print("  Streak         \(stats.currentStreak) day\(stats.currentStreak == 1 ? "" : "s")   (longest \(stats.longestStreak))")
        print("  Per day        \(String(format: "%.1f", stats.averageSessionsPerDay)) trees on days with trees (\(stats.daysWithTrees) days)")
        print("")
        print(style.bold("Last 12 months"))
        print(Heatmap.render(year, from: yearStart, to: today, firstWeekday: calendar.firstWeekday, width: traits.width, style: style))
        print("")
        print(style.bold("This week"))
        let maxMinutes = max(1, week.map { Int($0.focusTime / 60) }.max() ?? 1)
        let names = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        for d in week {
            let minutes = Int(d.focusTime / 60)
            let bar = String(repeating: "█", count: max(0, minutes * max(1, min(30, traits.width - 30)) / maxMinutes))
            print("  \(names[d.day.weekday]) \(d.day.description.suffix(5))  \(style.green(bar))\(bar.isEmpty ? "" : " ")\(minutes)m, \(d.trees) 🌳")
        }
    }
}

/// A contribution-graph style year: one column per week, one row per weekday.
enum Heatmap {
    static func render(_ days: [DailyFocusTotals], from start: LocalDay, to end: LocalDay, firstWeekday: Int, width: Int, style: Style) -> String {
        let trees = Dictionary(days.map { ($0.day, $0.trees) }, uniquingKeysWith: +)
        let weeks = start.days(to: end) / 7 + 1
        let shown = min(weeks, max(4, (width - 6)))
        let firstWeek = weeks - shown
        let levels = [" ", "░", "▒", "▓", "█"]
        var rows: [String] = []
        let names = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        for row in 0..<7 {
            var line = names[(firstWeekday + row) % 7] + "  "
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

/// `grove now`: one line for prompts and status bars.
struct NowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "now", abstract: "One line for shell prompts and status bars.",
        discussion: """
            Prints the running session and its remaining time, else the current intention; prints \
            nothing when there is neither.
              tmux:    set -g status-right '#(grove now)'
              waybar:  "custom/grove": { "exec": "grove now", "interval": 5 }
            """)
    @OptionGroup var options: GlobalOptions

    struct Report: Encodable {
        var text: String
        var session: FocusSession?
        var remaining: TimeInterval?
        var intention: Intention?
    }

    func run() throws {
        let db = try options.open()
        let session = try db.currentFocusSession()
        var report = Report(text: "")
        if let session {
            let remaining = session.remaining(at: try db.now(for: session))
            let stage = session.treeStage(at: try db.now(for: session))
            report.session = session
            report.remaining = remaining
            report.text = "\(FocusScreen.glyph(stage)) \(DurationParser.clock(remaining))\(session.state == .paused ? " paused" : "")"
        } else if let intention = try db.currentIntention() {
            report.intention = intention
            report.text = "◎ \(intention.text)"
        }
        if options.json { return try Output.json(report) }
        if !report.text.isEmpty { print(report.text) }
    }
}
