/// The period an intention covers (seed 004). Day overrides week overrides month.
public enum IntentionScope: String, Codable, CaseIterable, Sendable, Comparable {
    case day, week, month

    public var displayName: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }

    /// Precedence in the display hierarchy: day (0) before week (1) before month (2).
    public var precedence: Int {
        switch self {
        case .day: 0
        case .week: 1
        case .month: 2
        }
    }

    public static func < (a: Self, b: Self) -> Bool { a.precedence < b.precedence }

    /// The days this scope covers around `day`: the day itself; its calendar week (first day per
    /// `calendar.firstWeekday`); its month. Half-open: `start ..< end`.
    public func period(containing day: LocalDay, calendar: ZonedCalendar) -> Range<LocalDay> {
        switch self {
        case .day: return day..<day.adding(days: 1)
        case .week:
            let start = calendar.startOfWeek(containing: day)
            return start..<start.adding(days: 7)
        case .month: return day.firstOfMonth..<day.addingMonths(1)
        }
    }

    /// The period around `day` as a card's label: "Mon 23 Nov 2026", "Week of 16–22 Nov" (across
    /// months "Week of 30 Nov – 6 Dec"), "November 2026". Never a bare day for a week or a month.
    public func periodLabel(containing day: LocalDay, calendar: ZonedCalendar) -> String {
        let days = period(containing: day, calendar: calendar)
        switch self {
        case .day:
            return "\(Weekday(rawValue: day.weekday)?.shortName ?? "") \(day.day) \(Self.shortMonth(day.month)) \(day.year)"
        case .week:
            let first = days.lowerBound, last = days.upperBound.adding(days: -1)
            if first.month == last.month { return "Week of \(first.day)–\(last.day) \(Self.shortMonth(last.month))" }
            let year = first.year == last.year ? "" : " \(first.year)"
            return
                "Week of \(first.day) \(Self.shortMonth(first.month))\(year) – \(last.day) \(Self.shortMonth(last.month))\(year.isEmpty ? "" : " \(last.year)")"
        case .month:
            return periodDescription(containing: day, calendar: calendar)
        }
    }

    private static func shortMonth(_ month: Int) -> String { LocalDay.shortMonthName(month) }

    /// The period around `day` in words: "2026-11-22", "the week of 2026-11-16 to 2026-11-22",
    /// "November 2026" — a week is never labelled with a single day.
    public func periodDescription(containing day: LocalDay, calendar: ZonedCalendar) -> String {
        let days = period(containing: day, calendar: calendar)
        switch self {
        case .day: return day.description
        case .week: return "the week of \(days.lowerBound) to \(days.upperBound.adding(days: -1))"
        case .month:
            let name = LocalDay.monthName(day.month)
            return "\(name) \(day.year)"
        }
    }
}

extension IntentionScope {
    /// A scope typed by a person (any case), or a validation error naming `field`.
    public init(validating text: String, field: String = "scope") throws {
        self = try Self.choosing(text, field: field)
    }
}
