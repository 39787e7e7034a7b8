import Foundation

/// Statistics of the forest (seed 000, T011), computed from sessions and never stored.
///
/// Grove fixes the seed's `averageSessionsPerDay` (it divided by the current streak): it is trees per
/// day that had at least one tree.
public struct ForestStats: Equatable, Sendable, Codable {
    /// Completed sessions.
    public let totalTrees: Int
    /// Focus time of completed sessions, seconds.
    public let totalFocusTime: TimeInterval
    /// Completed + abandoned sessions.
    public let totalSessions: Int
    /// Sessions completed today (configured zone).
    public let todaysTrees: Int
    /// Focus time of today's completed sessions, seconds.
    public let todaysFocusTime: TimeInterval
    /// Consecutive days with ≥ 1 completed session, ending today or yesterday.
    public let currentStreak: Int
    /// Longest such run ever.
    public let longestStreak: Int
    public let abandonedCount: Int
    /// totalTrees / totalSessions × 100 (0 with no sessions).
    public let completionRate: Double
    /// Days that had at least one completed session.
    public let daysWithTrees: Int

    public init(
        totalTrees: Int, totalFocusTime: TimeInterval, totalSessions: Int, todaysTrees: Int,
        todaysFocusTime: TimeInterval, currentStreak: Int, longestStreak: Int, abandonedCount: Int,
        completionRate: Double, daysWithTrees: Int
    ) {
        self.totalTrees = totalTrees
        self.totalFocusTime = totalFocusTime
        self.totalSessions = totalSessions
        self.todaysTrees = todaysTrees
        self.todaysFocusTime = todaysFocusTime
        self.currentStreak = currentStreak
        self.longestStreak = longestStreak
        self.abandonedCount = abandonedCount
        self.completionRate = completionRate
        self.daysWithTrees = daysWithTrees
    }

    public static let empty = ForestStats(
        totalTrees: 0, totalFocusTime: 0, totalSessions: 0, todaysTrees: 0, todaysFocusTime: 0,
        currentStreak: 0, longestStreak: 0, abandonedCount: 0, completionRate: 0, daysWithTrees: 0)

    public var totalFocusHours: Double { totalFocusTime / 3600.0 }

    /// Trees per day that had at least one tree.
    public var averageSessionsPerDay: Double {
        daysWithTrees > 0 ? Double(totalTrees) / Double(daysWithTrees) : 0
    }

    /// "2h 5m", or "5m" under an hour.
    public var formattedTotalFocusTime: String { Self.formatDuration(totalFocusTime) }

    /// "2h 5m", or "5m" under an hour (the seed's format, for any duration).
    public static func formatDuration(_ time: TimeInterval) -> String {
        // Total for any Double: NaN and negatives read as 0, and nothing traps on conversion.
        let seconds = time.isFinite ? Int(min(max(time, 0), 1e15)) : 0
        let hours = seconds / 3600
        let minutes = (seconds % 3600) / 60
        return hours > 0 ? "\(hours)h \(minutes)m" : "\(minutes)m"
    }

    private enum CodingKeys: String, CodingKey {
        case totalTrees, totalFocusTime, totalSessions, todaysTrees, todaysFocusTime, currentStreak,
            longestStreak, abandonedCount, completionRate, daysWithTrees
        case totalFocusHours, averageSessionsPerDay, formattedTotalFocusTime
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(totalTrees, forKey: .totalTrees)
        try c.encode(totalFocusTime, forKey: .totalFocusTime)
        try c.encode(totalSessions, forKey: .totalSessions)
        try c.encode(todaysTrees, forKey: .todaysTrees)
        try c.encode(todaysFocusTime, forKey: .todaysFocusTime)
        try c.encode(currentStreak, forKey: .currentStreak)
        try c.encode(longestStreak, forKey: .longestStreak)
        try c.encode(abandonedCount, forKey: .abandonedCount)
        try c.encode(completionRate, forKey: .completionRate)
        try c.encode(daysWithTrees, forKey: .daysWithTrees)
        try c.encode(totalFocusHours, forKey: .totalFocusHours)
        try c.encode(averageSessionsPerDay, forKey: .averageSessionsPerDay)
        try c.encode(formattedTotalFocusTime, forKey: .formattedTotalFocusTime)
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            totalTrees: try c.decode(Int.self, forKey: .totalTrees),
            totalFocusTime: try c.decode(Double.self, forKey: .totalFocusTime),
            totalSessions: try c.decode(Int.self, forKey: .totalSessions),
            todaysTrees: try c.decode(Int.self, forKey: .todaysTrees),
            todaysFocusTime: try c.decode(Double.self, forKey: .todaysFocusTime),
            currentStreak: try c.decode(Int.self, forKey: .currentStreak),
            longestStreak: try c.decode(Int.self, forKey: .longestStreak),
            abandonedCount: try c.decode(Int.self, forKey: .abandonedCount),
            completionRate: try c.decode(Double.self, forKey: .completionRate),
            daysWithTrees: try c.decode(Int.self, forKey: .daysWithTrees))
    }
}

/// The totals of one local day: the unit the store aggregates in SQL.
public struct DailyFocusTotals: Equatable, Sendable, Codable {
    public var day: LocalDay
    public var trees: Int
    public var abandoned: Int
    public var focusTime: TimeInterval

    public init(day: LocalDay, trees: Int, abandoned: Int, focusTime: TimeInterval) {
        self.day = day
        self.trees = trees
        self.abandoned = abandoned
        self.focusTime = focusTime
    }
}

extension ForestStats {
    /// Stats from per-day totals (how the store computes them: one row per day, not per session).
    public static func from(daily: [DailyFocusTotals], today: LocalDay, calendar: ZonedCalendar) -> ForestStats {
        var trees = 0, abandoned = 0, focus: TimeInterval = 0
        var todayTrees = 0, todayFocus: TimeInterval = 0
        var treeDays: [LocalDay] = []
        treeDays.reserveCapacity(daily.count)
        for row in daily {
            trees += row.trees
            abandoned += row.abandoned
            focus += row.focusTime
            if row.trees > 0 { treeDays.append(row.day) }
            if row.day == today {
                todayTrees += row.trees
                todayFocus += row.focusTime
            }
        }
        treeDays.sort()
        // Rows may repeat a day when callers merge sources; keep the list distinct.
        var distinct: [LocalDay] = []
        distinct.reserveCapacity(treeDays.count)
        for day in treeDays where distinct.last != day { distinct.append(day) }
        let total = trees + abandoned
        return ForestStats(
            totalTrees: trees,
            totalFocusTime: focus,
            totalSessions: total,
            todaysTrees: todayTrees,
            todaysFocusTime: todayFocus,
            currentStreak: Streaks.current(sortedDistinct: distinct, today: today, calendar: calendar),
            longestStreak: Streaks.longest(sortedDistinct: distinct, calendar: calendar),
            abandonedCount: abandoned,
            completionRate: total > 0 ? Double(trees) / Double(total) * 100 : 0,
            daysWithTrees: distinct.count)
    }

    /// Stats straight from sessions (seed 000's `from(sessions:)`), after settling each at `now`.
    /// Open sessions count nowhere until they end.
    public static func from(sessions: [FocusSession], now: Date, calendar: ZonedCalendar) -> ForestStats {
        var byDay: [LocalDay: DailyFocusTotals] = [:]
        for raw in sessions {
            let session = raw.settled(at: now, fallback: calendar)
            guard session.state.isTerminal, let day = session.endDay else { continue }
            var totals = byDay[day] ?? DailyFocusTotals(day: day, trees: 0, abandoned: 0, focusTime: 0)
            if session.state == .completed {
                totals.trees += 1
                totals.focusTime += session.duration
            } else {
                totals.abandoned += 1
            }
            byDay[day] = totals
        }
        return from(daily: Array(byDay.values), today: calendar.localDay(of: now), calendar: calendar)
    }
}
