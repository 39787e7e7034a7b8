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
}
