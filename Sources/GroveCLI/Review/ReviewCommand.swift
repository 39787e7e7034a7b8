import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// `grove review`: the week at a glance across the four rooms.
struct ReviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "review",
        abstract: "Look back on a week: intention, focus per day, streak, pauses, checklists, next week's reminders.",
        discussion: """
              grove review                    # this week (your first weekday starts it: grove remind --week-starts)
              grove review --week last
              grove review --week 2026-W47 --json
            The web app has the same page at /review (printable).
            """)
    @OptionGroup var options: GlobalOptions
    @Option(name: .long, help: ArgumentHelp("2026-W47, a day in the week (2026-11-18), this or last.", valueName: "week")) var week: String?

    func run() throws { try Self.run(options.plain, week: week) }

    /// The review, for whichever parse made the command (`EverydayParse.immediate`: this week).
    static func run(_ options: PlainOptions, week: String? = nil) throws {
        let db = try options.open()
        let review = try db.review.week(named: week)
        if options.json { return try Output.json(review) }
        print(Self.render(review, calendar: try db.calendar()))
    }

    /// The review as text: one section per room, a bar per day.
    static func render(_ r: WeeklyReview, calendar: ZonedCalendar) -> String {
        var lines = ["Week \(r.week): \(r.start) to \(r.end)"]
        if let text = r.weekIntention {
            lines.append("Intention: \(text)")
        } else if let text = r.monthIntention {
            lines.append("Intention (month): \(text)")
        }
        lines.append("")
        let best = max(1, r.busiestDayMinutes)
        for day in r.days {
            let bar = String(repeating: "█", count: day.focusMinutes * 20 / best)
            let trees = day.trees > 0 ? " \(String(repeating: "🌳", count: min(day.trees, 12)))" : ""
            lines.append(
                "\(day.weekday) \(day.date)  \(ForestStats.formatDuration(TimeInterval(day.focusMinutes) * 60).padding(toLength: 7, withPad: " ", startingAt: 0)) \(bar)\(trees)"
            )
        }
        let change = r.focusMinutes - r.previousWeekFocusMinutes
        lines.append(
            "Focus: \(ForestStats.formatDuration(TimeInterval(r.focusMinutes) * 60)) (\(change >= 0 ? "+" : "−")\(ForestStats.formatDuration(TimeInterval(abs(change) * 60))) on the week before), "
                + "\(plural(r.trees, "tree")), \(r.abandoned) abandoned · streak \(plural(r.streak, "day"))")
        if !r.tags.isEmpty {
            lines.append(
                "By tag: "
                    + r.tags.map {
                        "\($0.tag) \(ForestStats.formatDuration(TimeInterval($0.focusMinutes) * 60)) (\(plural($0.trees, "tree")))"
                    }
                    .joined(separator: " · "))
        }
        lines.append("")
        if !r.pausesKept { lines.append("Pauses are kept for 30 days: this week's are gone, in part or whole.") }
        if r.pauses.isEmpty {
            if r.pausesKept { lines.append("Pauses: none this week.") }
        } else {
            lines.append("Pauses: opened (against the week before) · left · delayed · planted a tree instead · went on · gate")
            lines.append("  (\(UsageStatistics.leftMeaning.term.lowercased()): \(UsageStatistics.leftMeaning.meaning))")
            lines.append("  (\(UsageStatistics.delayedMeaning.term.lowercased()): \(UsageStatistics.delayedMeaning.meaning))")
            lines.append(
                "  (gate: what loosened it — grace visits, trees withered, the gate off, blocks loosened, emergency passes; held: nothing)")
            for p in r.pauses {
                let change = PauseWeek.changeText(p.attempts, before: p.previousAttempts)
                lines.append(
                    "  \(p.name.padding(toLength: 14, withPad: " ", startingAt: 0)) \(p.attempts) (\(change)) · \(p.exits) · \(p.delayed) · \(p.rescued) · \(p.proceeded) · \(p.integrityText)"
                )
            }
        }
        lines.append(
            "Checklists: \(plural(r.todosCompleted, "to-do")) ticked\(r.checklistsCompleted.isEmpty ? "" : "; finished: " + r.checklistsCompleted.joined(separator: ", "))"
        )
        if !r.upcomingReminders.isEmpty {
            // A daily reminder is named once, with its time; the others with their day.
            var seenDaily = false
            let named = r.upcomingReminders.compactMap { reminder -> String? in
                let text = calendar.wallText(reminder.at)
                guard reminder.kind == .daily else { return "\(reminder.kind.rawValue) \(text)" }
                defer { seenDaily = true }
                return seenDaily ? nil : "daily at \(text.split(separator: " ").last.map(String.init) ?? text)"
            }
            lines.append("Next week's reminders: " + named.joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }

    private static func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
}
