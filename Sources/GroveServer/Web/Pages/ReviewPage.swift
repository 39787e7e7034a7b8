import Foundation
import GroveCore
import GroveStore

/// `/review`: the weekly review as a printable page (the same figures as `grove review`).
struct ReviewPage: Encodable {
    struct Day: Encodable {
        var weekday: String; var date: String; var focus: String; var minutes: Int; var trees: Int; var abandoned: Int;
        var dayIntention: String
        /// "essay 50m, code 25m", or empty. Never optional: a missing key inside `{{#days}}` would be looked
        /// up in the page around it (whose `tags` is the week's list) and print that list's debug text.
        var tagText: String
    }
    struct Tag: Encodable { var tag: String; var link: String; var focus: String; var minutes: Int; var trees: Int; var abandoned: Int }
    struct Pauses: Encodable {
        var name: String; var attempts: Int; var change: String; var exits: Int; var delayed: Int; var rescued: Int; var proceeded: Int
        /// `PauseWeek.integrityText`: what loosened the gate this week.
        var integrity: String
    }
    struct Reminder: Encodable { var kind: String; var at: String }

    /// The word "Left" as every face means it.
    var leftMeaning = UsageStatistics.leftMeaning.meaning
    var delayedMeaning = UsageStatistics.delayedMeaning.meaning
    var title: String
    var bare = false
    var week: String
    var range: String
    var previous: String
    var next: String?
    var intention: String?
    var intentionScope: String?
    var days: [Day]
    var tags: [Tag]
    var hasTags: Bool
    var bestTag: Int
    var best: Int
    var focus: String
    var change: String
    var trees: Int
    var treesWord: String
    var abandoned: Int
    var streak: Int
    var streakWord: String
    var pausesKept: Bool
    var pauses: [Pauses]
    var noPauses: Bool
    var hasPauses: Bool
    var todos: Int
    var todosWord: String
    var checklists: String?
    var reminders: [Reminder]

    init(_ r: WeeklyReview, calendar: ZonedCalendar, today: LocalDay) {
        func plural(_ n: Int, _ word: String) -> String { n == 1 ? word : word + "s" }
        func duration(_ minutes: Int) -> String { ForestStats.formatDuration(TimeInterval(minutes) * 60) }
        title = "Week \(r.week)"
        week = r.week
        range = "\(r.start) to \(r.end)"
        previous = ISOWeek.label(weekStarting: r.start.adding(days: -7))
        // No "next" past the week under way: nothing has happened there yet.
        next = r.end < today ? ISOWeek.label(weekStarting: r.start.adding(days: 7)) : nil
        intention = r.weekIntention ?? r.monthIntention
        intentionScope = r.weekIntention != nil ? "week" : r.monthIntention != nil ? "month" : nil
        days = r.days.map {
            Day(
                weekday: $0.weekday, date: $0.date.description, focus: duration($0.focusMinutes), minutes: $0.focusMinutes,
                trees: $0.trees, abandoned: $0.abandoned, dayIntention: $0.intention ?? "",
                tagText: $0.tags.map { "\($0.tag) \(duration($0.focusMinutes))" }.joined(separator: ", "))
        }
        tags = r.tags.map {
            Tag(
                tag: $0.tag, link: "/stats?tag=" + QueryText.encode($0.tag), focus: duration($0.focusMinutes), minutes: $0.focusMinutes,
                trees: $0.trees, abandoned: $0.abandoned)
        }
        hasTags = !r.tags.isEmpty
        bestTag = max(1, r.tags.map(\.focusMinutes).max() ?? 1)
        best = max(1, r.busiestDayMinutes)
        focus = duration(r.focusMinutes)
        let delta = r.focusMinutes - r.previousWeekFocusMinutes
        change = delta == 0 ? "the same as the week before" : "\(delta > 0 ? "+" : "−")\(duration(abs(delta))) on the week before"
        trees = r.trees
        treesWord = plural(r.trees, "tree")
        abandoned = r.abandoned
        streak = r.streak
        streakWord = plural(r.streak, "day")
        pausesKept = r.pausesKept
        pauses = r.pauses.map {
            Pauses(
                name: $0.name, attempts: $0.attempts, change: PauseWeek.changeText($0.attempts, before: $0.previousAttempts),
                exits: $0.exits,
                delayed: $0.delayed, rescued: $0.rescued, proceeded: $0.proceeded, integrity: $0.integrityText)
        }
        noPauses = r.pausesKept && r.pauses.isEmpty
        hasPauses = !r.pauses.isEmpty
        todos = r.todosCompleted
        todosWord = plural(r.todosCompleted, "to-do")
        checklists = r.checklistsCompleted.isEmpty ? nil : r.checklistsCompleted.joined(separator: ", ")
        reminders = r.upcomingReminders.map {
            Reminder(kind: $0.kind.rawValue.prefix(1).uppercased() + $0.kind.rawValue.dropFirst(), at: calendar.wallText($0.at))
        }
    }
}

extension WebController {
    /// The weekly review of `?week=` (an ISO week, a day, "this" or "last"); anything else is a 400 naming it.
    func review(week: String?) throws -> ReviewPage {
        let calendar = try database.calendar()
        let today = calendar.localDay(of: database.environment.now())
        return ReviewPage(try APIError.parameter { try database.review.week(named: week) }, calendar: calendar, today: today)
    }
}
