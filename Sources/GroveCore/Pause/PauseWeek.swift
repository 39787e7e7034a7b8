import Foundation

/// One app's pauses over one calendar week: what the research on app-opening pauses measures (how
/// often a pause is dismissed, and whether attempts fall week by week), counted only from what
/// happened. Derived on read from the 30 days of pauses Grove keeps.
public struct PauseWeek: Codable, Sendable, Equatable {
    public var appId: String
    /// The week's first day (the configured first weekday) and its last.
    public var start: LocalDay
    public var end: LocalDay
    /// Pauses started (attempts that reached the gate).
    public var pauses: Int
    /// Pauses that ended (the rest are still open).
    public var finished: Int
    /// Finished pauses not followed by the app (`UsageStatistics.notOpenedMeaning`).
    public var notOpened: Int
    /// Of those, tried again within 10 minutes (`UsageStatistics.delayedMeaning`).
    public var delayed: Int
    /// Pauses that let a visit through a scheduled block with the week's emergency pass.
    public var emergencyPasses: Int
    /// Pauses the week before, over the same days of the week (all of it for a past week; up to
    /// today's weekday for this one); nil when those days are older than the 30 days kept.
    public var previousPauses: Int?
    /// Whether the week is still going on (its figures are so far).
    public var current: Bool

    /// Pauses that kept the person away: not opened, and not tried again soon after.
    public var keptAway: Int { max(0, notOpened - delayed) }
    /// The share of finished pauses that kept the person away, 0…1.
    public var keptAwayShare: Double { finished > 0 ? Double(keptAway) / Double(finished) : 0 }
    /// Pauses against the week before (negative: fewer attempts), when that week is known.
    public var change: Int? { previousPauses.map { pauses - $0 } }
    /// A count against the week before's as every face writes it: "+3", "−2", "same", or "—" when
    /// that week is not known (older than the 30 days kept).
    public static func changeText(_ now: Int, before: Int?) -> String {
        before.map { now - $0 }.map { $0 == 0 ? "same" : $0 > 0 ? "+\($0)" : "−\(-$0)" } ?? "—"
    }

    /// The week as every face names it: "2026-11-16 – 2026-11-22", or "2026-11-23 (so far)".
    public var weekText: String { current ? "\(start) (so far)" : "\(start) – \(end)" }

    /// The share kept away as every face writes it ("67%"), or "—" when no pause ended.
    public var keptAwayText: String { finished > 0 ? "\(Int((keptAwayShare * 100).rounded()))%" : "—" }

    /// `UsageStatistics.timeSavedMeaning`, for this week.
    public var timeSaved: TimeInterval { Double(keptAway) * UsageStatistics.visitEstimate }

    private enum CodingKeys: String, CodingKey {
        case appId, start, end, pauses, finished, notOpened, delayed, emergencyPasses, previousPauses, current
        case keptAway, keptAwayShare, change, timeSaved
    }

    public init(
        appId: String, start: LocalDay, end: LocalDay, pauses: Int, finished: Int, notOpened: Int, delayed: Int, emergencyPasses: Int,
        previousPauses: Int?, current: Bool
    ) {
        self.appId = appId
        self.start = start
        self.end = end
        self.pauses = pauses
        self.finished = finished
        self.notOpened = notOpened
        self.delayed = delayed
        self.emergencyPasses = emergencyPasses
        self.previousPauses = previousPauses
        self.current = current
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            appId: try c.decode(String.self, forKey: .appId), start: try c.decode(LocalDay.self, forKey: .start),
            end: try c.decode(LocalDay.self, forKey: .end), pauses: try c.decode(Int.self, forKey: .pauses),
            finished: try c.decode(Int.self, forKey: .finished), notOpened: try c.decode(Int.self, forKey: .notOpened),
            delayed: try c.decode(Int.self, forKey: .delayed), emergencyPasses: try c.decode(Int.self, forKey: .emergencyPasses),
            previousPauses: try c.decodeIfPresent(Int.self, forKey: .previousPauses), current: try c.decode(Bool.self, forKey: .current))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(appId, forKey: .appId)
        try c.encode(start, forKey: .start)
        try c.encode(end, forKey: .end)
        try c.encode(pauses, forKey: .pauses)
        try c.encode(finished, forKey: .finished)
        try c.encode(notOpened, forKey: .notOpened)
        try c.encode(delayed, forKey: .delayed)
        try c.encode(emergencyPasses, forKey: .emergencyPasses)
        try c.encode(previousPauses, forKey: .previousPauses)
        try c.encode(current, forKey: .current)
        try c.encode(keptAway, forKey: .keptAway)
        try c.encode(keptAwayShare, forKey: .keptAwayShare)
        try c.encode(change, forKey: .change)
        try c.encode(timeSaved, forKey: .timeSaved)
    }

    /// Each app's weeks, newest first, from the days' counts: every week whose first day is within
    /// the 30 days kept (an older week would be partial), this one included, with or without pauses
    /// (a week without any is the figure that matters most), for every app with pauses in those days.
    public static func derive(from days: [UsageDayCounts], calendar: ZonedCalendar, today: LocalDay) -> [PauseWeek] {
        let kept = UsageStatistics.retentionStart(today: today)
        let thisWeek = calendar.startOfWeek(containing: today)
        let daysIn = today.dayNumber - thisWeek.dayNumber  // of this week, before today
        let keptWeek = calendar.startOfWeek(containing: kept)
        let firstWeek = keptWeek >= kept ? keptWeek : keptWeek.adding(days: 7)
        let starts = stride(from: 0, through: max(0, firstWeek.days(to: thisWeek)), by: 7).map { firstWeek.adding(days: $0) }
        var weeks: [PauseWeek] = []
        for (appId, rows) in Dictionary(grouping: days, by: \.appId) {
            func sum(_ from: LocalDay, _ to: LocalDay, _ value: (UsageDayCounts) -> Int) -> Int {
                rows.filter { $0.date >= from && $0.date <= to }.reduce(0) { $0 + value($1) }
            }
            for start in starts where start <= thisWeek {
                let end = start.adding(days: 6), previousStart = start.adding(days: -7)
                let previousEnd = start == thisWeek ? previousStart.adding(days: daysIn) : previousStart.adding(days: 6)
                weeks.append(
                    PauseWeek(
                        appId: appId, start: start, end: end, pauses: sum(start, end, \.total), finished: sum(start, end, \.finished),
                        notOpened: sum(start, end, \.notOpened), delayed: sum(start, end, \.delayed),
                        emergencyPasses: sum(start, end, \.emergency),
                        previousPauses: previousStart >= kept ? sum(previousStart, previousEnd, \.total) : nil, current: start == thisWeek))
            }
        }
        return weeks.sorted { ($0.start, $1.appId) > ($1.start, $0.appId) }
    }
}
