import Foundation

/// One app's pauses over one calendar week: what the research on app-opening pauses measures (how
/// often a pause is dismissed, and whether attempts fall week by week), counted only from what
/// happened. Derived on read from the 30 days of pauses Grove keeps.
public struct PauseWeek: Encodable, Sendable, Equatable {
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
    /// After Proceed, as the browser extension measured: visits measured and their seconds.
    public var measuredVisits = 0
    public var visitSeconds = 0
    /// The gate's own integrity: visits grace windows let through without a pause, pauses opened by
    /// letting a tree wither, the gate switched off, blocks removed or made not strict.
    public var graceVisits = 0
    public var witheredTrees = 0
    public var gatesOff = 0
    public var blocksLoosened = 0
    /// What each pause that kept the person away counts for (`UsageStatistics.savedPerVisit`).
    public var savedPerVisit: TimeInterval = UsageStatistics.visitEstimate
    public var savedPerVisitMeasured = 0

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
    public var timeSaved: TimeInterval { Double(keptAway) * savedPerVisit }

    /// Minutes on the app after Proceed as every face writes them: "42 min over 3 visits", or "—"
    /// when no visit was measured (the extension measures them).
    public var visitsText: String {
        measuredVisits > 0
            ? "\(UsageStatistics.lengthText(TimeInterval(visitSeconds))) over \(measuredVisits) visit\(measuredVisits == 1 ? "" : "s")"
            : "—"
    }

    /// Whether nothing loosened the gate this week (`integrityText` says "held").
    public var held: Bool { graceVisits + witheredTrees + gatesOff + blocksLoosened + emergencyPasses == 0 }

    /// The gate's integrity figures as every face writes them (`integrityText(grace:withered:gatesOff:loosened:passes:)`).
    public var integrityText: String {
        Self.integrityText(
            grace: graceVisits, withered: witheredTrees, gatesOff: gatesOff, loosened: blocksLoosened, passes: emergencyPasses)
    }

    /// "2 grace visits, 1 tree withered, gate off once", or "held" when nothing loosened the gate.
    public static func integrityText(grace: Int, withered: Int, gatesOff: Int, loosened: Int, passes: Int) -> String {
        func count(_ n: Int, _ one: String, _ many: String) -> String? { n > 0 ? "\(n) \(n == 1 ? one : many)" : nil }
        let parts = [
            count(grace, "grace visit", "grace visits"), count(withered, "tree withered", "trees withered"),
            gatesOff > 0 ? "gate off \(gatesOff == 1 ? "once" : "\(gatesOff) times")" : nil,
            count(loosened, "block loosened", "blocks loosened"), count(passes, "emergency pass", "emergency passes"),
        ].compactMap { $0 }
        return parts.isEmpty ? "held" : parts.joined(separator: ", ")
    }

    private enum CodingKeys: String, CodingKey {
        case appId, start, end, pauses, finished, notOpened, delayed, emergencyPasses, previousPauses, current
        case keptAway, keptAwayShare, change, timeSaved
        case measuredVisits, visitSeconds, graceVisits, witheredTrees, gatesOff, blocksLoosened, savedPerVisit, savedPerVisitMeasured
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
        try c.encode(measuredVisits, forKey: .measuredVisits)
        try c.encode(visitSeconds, forKey: .visitSeconds)
        try c.encode(graceVisits, forKey: .graceVisits)
        try c.encode(witheredTrees, forKey: .witheredTrees)
        try c.encode(gatesOff, forKey: .gatesOff)
        try c.encode(blocksLoosened, forKey: .blocksLoosened)
        try c.encode(savedPerVisit, forKey: .savedPerVisit)
        try c.encode(savedPerVisitMeasured, forKey: .savedPerVisitMeasured)
    }

    /// Each app's weeks, newest first, from the days' counts: every week whose first day is within
    /// the 30 days kept (an older week would be partial), this one included, with or without pauses
    /// (a week without any is the figure that matters most), for every app with pauses in those days.
    public static func derive(
        from days: [UsageDayCounts], changes: [GateChangeCounts] = [], calendar: ZonedCalendar, today: LocalDay
    ) -> [PauseWeek] {
        let kept = UsageStatistics.retentionStart(today: today)
        let thisWeek = calendar.startOfWeek(containing: today)
        let daysIn = today.dayNumber - thisWeek.dayNumber  // of this week, before today
        let keptWeek = calendar.startOfWeek(containing: kept)
        let firstWeek = keptWeek >= kept ? keptWeek : keptWeek.adding(days: 7)
        let starts = stride(from: 0, through: max(0, firstWeek.days(to: thisWeek)), by: 7).map { firstWeek.adding(days: $0) }
        var weeks: [PauseWeek] = []
        let byApp = Dictionary(grouping: days, by: \.appId), changesByApp = Dictionary(grouping: changes, by: \.appId)
        for appId in Set(byApp.keys).union(changesByApp.keys) {
            let rows = byApp[appId] ?? [], loosened = changesByApp[appId] ?? []
            func sum(_ from: LocalDay, _ to: LocalDay, _ value: (UsageDayCounts) -> Int) -> Int {
                rows.filter { $0.date >= from && $0.date <= to }.reduce(0) { $0 + value($1) }
            }
            func sum(_ from: LocalDay, _ to: LocalDay, _ value: (GateChangeCounts) -> Int) -> Int {
                loosened.filter { $0.date >= from && $0.date <= to }.reduce(0) { $0 + value($1) }
            }
            let visit = UsageDayCounts.visitLength(rows)
            for start in starts where start <= thisWeek {
                let end = start.adding(days: 6), previousStart = start.adding(days: -7)
                let previousEnd = start == thisWeek ? previousStart.adding(days: daysIn) : previousStart.adding(days: 6)
                var week = PauseWeek(
                    appId: appId, start: start, end: end, pauses: sum(start, end, \.total), finished: sum(start, end, \.finished),
                    notOpened: sum(start, end, \.notOpened), delayed: sum(start, end, \.delayed),
                    emergencyPasses: sum(start, end, \.emergency),
                    previousPauses: previousStart >= kept ? sum(previousStart, previousEnd, \.total) : nil, current: start == thisWeek)
                week.measuredVisits = sum(start, end, \UsageDayCounts.measuredVisits)
                week.visitSeconds = sum(start, end, \UsageDayCounts.visitSeconds)
                week.graceVisits = sum(start, end, \UsageDayCounts.graceVisits)
                week.witheredTrees = sum(start, end, \UsageDayCounts.witheredTrees)
                week.gatesOff = sum(start, end, \GateChangeCounts.gatesOff)
                week.blocksLoosened = sum(start, end, \GateChangeCounts.blocksLoosened)
                (week.savedPerVisit, week.savedPerVisitMeasured) = visit
                weeks.append(week)
            }
        }
        return weeks.sorted { ($0.start, $1.appId) > ($1.start, $0.appId) }
    }
}
