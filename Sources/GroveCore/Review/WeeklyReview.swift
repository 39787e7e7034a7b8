import Foundation

/// A look back on one calendar week across the four rooms (a Grove addition): the week's
/// intention, focus per day, the streak, the pauses per app, the checklists finished, and the
/// reminders of the week that follows. Built by the store from per-day totals and indexed ranges,
/// never from every session ever recorded.
public struct WeeklyReview: Sendable, Equatable, Codable {
    /// One day of the week.
    public struct Day: Sendable, Equatable, Codable {
        public var date: LocalDay
        /// "Mon" … "Sun".
        public var weekday: String
        public var trees: Int
        public var abandoned: Int
        public var focusMinutes: Int
        /// The day's own intention, when it had one.
        public var intention: String?
        /// The day's focus by tag, most first (a session with two tags counts under each).
        public var tags: [TagTotal]

        public init(date: LocalDay, trees: Int, abandoned: Int, focusMinutes: Int, intention: String? = nil, tags: [TagTotal] = []) {
            self.date = date
            self.weekday = WeeklyReview.weekdayNames[date.weekday]
            self.trees = trees
            self.abandoned = abandoned
            self.focusMinutes = focusMinutes
            self.intention = intention
            self.tags = tags
        }
    }

    /// What was done under one tag (a day's, or the week's).
    public struct TagTotal: Sendable, Equatable, Codable {
        public var tag: String
        public var trees: Int
        public var abandoned: Int
        public var focusMinutes: Int

        public init(tag: String, trees: Int, abandoned: Int, focusMinutes: Int) {
            self.tag = tag
            self.trees = trees
            self.abandoned = abandoned
            self.focusMinutes = focusMinutes
        }
    }

    /// How the pauses in front of one app went that week.
    public struct AppPauses: Sendable, Equatable, Codable {
        public var appId: String
        public var name: String
        /// Openings that reached the gate.
        public var attempts: Int
        /// Left with Exit.
        public var exits: Int
        /// Turned into a focus session ("plant a tree instead"): opens rescued.
        public var rescued: Int
        /// Went on to the app.
        public var proceeded: Int
        /// Not opened after the pause, but tried again within 10 minutes (`UsageStatistics.delayedMeaning`).
        public var delayed: Int
        /// Openings the week before; nil when that week is older than the 30 days pauses are kept.
        public var previousAttempts: Int?
        /// The gate's integrity that week (`PauseWeek.integrityText`): visits grace windows let through,
        /// trees let wither to open the app, the gate switched off, blocks loosened, emergency passes.
        public var graceVisits = 0
        public var witheredTrees = 0
        public var gatesOff = 0
        public var blocksLoosened = 0
        public var emergencyPasses = 0
        /// After Proceed, as the browser extension measured: visits measured and their seconds.
        public var measuredVisits = 0
        public var visitSeconds = 0

        /// `PauseWeek.integrityText` for this app's week.
        public var integrityText: String {
            PauseWeek.integrityText(
                grace: graceVisits, withered: witheredTrees, gatesOff: gatesOff, loosened: blocksLoosened, passes: emergencyPasses)
        }

        public init(
            appId: String, name: String, attempts: Int, exits: Int, rescued: Int, proceeded: Int, delayed: Int = 0,
            previousAttempts: Int? = nil
        ) {
            self.delayed = delayed
            self.previousAttempts = previousAttempts
            self.appId = appId
            self.name = name
            self.attempts = attempts
            self.exits = exits
            self.rescued = rescued
            self.proceeded = proceeded
        }
    }

    /// A reminder due in the week after the reviewed one.
    public struct Reminder: Sendable, Equatable, Codable {
        public var kind: ReminderKind
        public var at: Date
        public init(kind: ReminderKind, at: Date) {
            self.kind = kind
            self.at = at
        }
    }

    /// "2026-W47": the ISO week holding most of the review's days (`ISOWeek.label(weekStarting:)`).
    public var week: String
    /// The first and last day (the configured first weekday starts the week).
    public var start: LocalDay
    public var end: LocalDay
    /// The week's own intention, and the month's (of the week's first day) behind it.
    public var weekIntention: String?
    public var monthIntention: String?
    public var days: [Day]
    /// The week's focus by tag, most first.
    public var tags: [TagTotal]
    public var trees: Int
    public var abandoned: Int
    public var focusMinutes: Int
    /// The week before, for comparison.
    public var previousWeekFocusMinutes: Int
    /// The streak as it stood at the end of the week (or today, for the week under way).
    public var streak: Int
    public var pauses: [AppPauses]
    /// False when the week is older than the 30 days pauses are kept: the pause figures are then unknown, not zero.
    public var pausesKept: Bool
    /// To-dos ticked during the week, and the timers whose whole checklist was finished in it.
    public var todosCompleted: Int
    public var checklistsCompleted: [String]
    public var upcomingReminders: [Reminder]

    public init(
        week: String, start: LocalDay, end: LocalDay, weekIntention: String?, monthIntention: String?, days: [Day],
        previousWeekFocusMinutes: Int, streak: Int, pauses: [AppPauses], pausesKept: Bool,
        todosCompleted: Int, checklistsCompleted: [String], upcomingReminders: [Reminder], tags: [TagTotal] = []
    ) {
        self.week = week
        self.start = start
        self.end = end
        self.weekIntention = weekIntention
        self.monthIntention = monthIntention
        self.days = days
        self.tags = tags
        self.trees = days.reduce(0) { $0 + $1.trees }
        self.abandoned = days.reduce(0) { $0 + $1.abandoned }
        self.focusMinutes = days.reduce(0) { $0 + $1.focusMinutes }
        self.previousWeekFocusMinutes = previousWeekFocusMinutes
        self.streak = streak
        self.pauses = pauses
        self.pausesKept = pausesKept
        self.todosCompleted = todosCompleted
        self.checklistsCompleted = checklistsCompleted
        self.upcomingReminders = upcomingReminders
    }

    static let weekdayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
}

/// ISO 8601 week dates ("2026-W47"), for naming and choosing a week.
public enum ISOWeek {
    /// The ISO week of `day`: (year, week 1…53). Week 1 is the one with the year's first Thursday.
    public static func of(_ day: LocalDay) -> (year: Int, week: Int) {
        let isoWeekday = (day.weekday + 6) % 7  // Monday 0 … Sunday 6
        let thursday = day.adding(days: 3 - isoWeekday)
        let firstOfYear = LocalDay(validYear: thursday.year, month: 1, day: 1)
        return (thursday.year, firstOfYear.days(to: thursday) / 7 + 1)
    }

    /// "2026-W47".
    public static func label(_ day: LocalDay) -> String {
        let (year, week) = of(day)
        return "\(year)-W\(week < 10 ? "0" : "")\(week)"
    }

    /// The ISO week that names a calendar week starting on `start` (any first weekday): the one holding
    /// most of its days, that is the ISO week of its fourth day. A Sunday-first week of 11–17 May 2025
    /// is 2025-W20 (six of its days), not W19 (its Sunday's).
    public static func label(weekStarting start: LocalDay) -> String { label(start.adding(days: 3)) }

    /// A day that selects the calendar week `label(weekStarting:)` names "2026-W47", whatever the first
    /// weekday: the ISO week's Thursday (every week holding it has its fourth day in that ISO week).
    public static func dayNaming(_ text: String) -> LocalDay? { monday(text)?.adding(days: 3) }

    /// The Monday of an ISO week written "2026-W47" (also "2026W47", "2026-w47"); nil when it is not
    /// one, or names a week 53 the year does not have.
    public static func monday(_ text: String) -> LocalDay? {
        let upper = text.uppercased()
        let parts = upper.split(separator: "W", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let yearText = parts[0].hasSuffix("-") ? parts[0].dropLast() : parts[0]
        guard yearText.count == 4, parts[1].count == 2, yearText.allSatisfy(\.isASCII), parts[1].allSatisfy(\.isASCII),
            let year = Int(yearText), let week = Int(parts[1]), (1...9999).contains(year), (1...53).contains(week)
        else { return nil }
        let january4 = LocalDay(validYear: year, month: 1, day: 4)
        let monday = january4.adding(days: -((january4.weekday + 6) % 7)).adding(days: (week - 1) * 7)
        return of(monday) == (year, week) ? monday : nil
    }
}

extension WeeklyReview {
    /// What `--week` and `?week=` accept, in words (for messages).
    public static let weekFormats = "2026-W47 (an ISO week), a day such as 2026-11-18 (its week), \"this\" or \"last\""

    /// A day inside the week `text` names: an ISO week ("2026-W47": the configured week it names, see
    /// `ISOWeek.label(weekStarting:)`), a day ("2026-11-18"), "this" or "last"; anything else is refused
    /// naming `field`, in the same words on every face.
    public static func day(validating text: String, field: String = "week", today: LocalDay) throws -> LocalDay {
        guard let day = day(in: text, today: today) else {
            throw InvalidField(field, "\(field) must be \(weekFormats) (got \(text.quotedForMessage))")
        }
        return day
    }

    /// As `day(validating:field:today:)`, nil for anything it does not read.
    public static func day(in text: String, today: LocalDay) -> LocalDay? {
        // The usual words as given, before Foundation's trimming: its first use costs `grove review`
        // 1.6 M instructions of its start.
        switch text {
        case "", "this": return today
        case "last": return today.adding(days: -7)
        default: break
        }
        switch text.trimmingCharacters(in: .whitespaces).lowercased() {
        case "", "this": return today
        case "last": return today.adding(days: -7)
        case let other: return ISOWeek.dayNaming(other) ?? LocalDay(other)
        }
    }

    /// The days with focus, as a share of the week (for bars): minutes ÷ the week's best day.
    public var busiestDayMinutes: Int { days.map(\.focusMinutes).max() ?? 0 }
}
