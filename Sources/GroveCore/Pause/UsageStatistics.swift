import Foundation

/// Pause usage for one app on one local day (seed 003), derived from gateway sessions on read.
///
/// Grove never stores these (DESIGN.md): no midnight job can be missed and no aggregate goes stale.
public struct UsageStatistics: Identifiable, Hashable, Sendable, Codable {
    /// Share of completed pauses the seed aims for.
    public static let completionTarget = 0.6
    /// Days of raw sessions kept.
    public static let retentionDays = 30

    /// `YYYY-MM-DD_appId`.
    public var id: String
    public var date: LocalDay
    public var appId: String
    /// Pauses started.
    public var totalSessions: Int
    /// Pauses whose countdown reached 0:00.
    public var completedSessions: Int
    /// Pauses left with "Exit to Focus", during the countdown or after it (`leftMeaning`).
    public var exitedSessions: Int
    /// Finished pauses after which the app or site was not opened (`notOpenedMeaning`): what the
    /// pause was for, where the completion rate only says the countdown was waited out.
    public var notOpenedSessions: Int
    /// Of those, the ones tried again within 10 minutes (`delayedMeaning`): the pause only delayed
    /// the visit, so it saves nothing.
    public var delayedSessions: Int
    /// Mean seconds in the mindful state over finished pauses.
    public var avgTimeSpent: Double
    /// Consecutive days up to `date` with ≥ 1 completed pause of this app.
    public var streakCount: Int
    /// Pauses ended with Proceed whose visit the browser extension measured, and the seconds those
    /// visits lasted (time with one of the app's pages open).
    public var measuredVisits = 0
    public var visitSeconds = 0
    /// Visits let through by a grace window after Proceed, without another pause.
    public var graceVisits = 0
    /// Pauses opened by letting a growing tree wither.
    public var witheredTrees = 0
    /// What each pause that kept the person away counts for in "time saved": the app's measured
    /// mean visit over the 30 days kept when there is one (`savedPerVisitMeasured` visits), else the
    /// 10-minute estimate (`savedPerVisitMeasured` is 0).
    public var savedPerVisit: TimeInterval = visitEstimate
    public var savedPerVisitMeasured = 0

    /// What one visit not made is counted as in "time saved": ten minutes, a short visit to a feed.
    /// An estimate, and said to be one wherever the figure shows.
    public static let visitEstimate: TimeInterval = 10 * 60
    /// How soon after a pause another try at the same app means the pause only delayed it.
    public static let reopenWindow: TimeInterval = 10 * 60
    /// What "Time saved" means in every face.
    public static let timeSavedMeaning = (
        term: "Time saved",
        meaning:
            "for each pause after which the app or site was neither opened nor tried again within 10 minutes, the average visit to it after Proceed as the browser extension measured it in the last 30 days (measured), or 10 minutes where no visit was measured (an estimate)"
    )
    /// How a total of time saved over `days` was reached: "measured", "an estimate", or "partly
    /// measured" (some apps' visits measured, others estimated). With nothing kept away yet, how it
    /// would be counted.
    public static func timeSavedBasis(_ days: [UsageStatistics]) -> String {
        let kept = days.filter { $0.keptAwaySessions > 0 }, counted = kept.isEmpty ? days : kept
        let measured = counted.filter { $0.savedPerVisitMeasured > 0 }.count
        return measured == 0 ? "an estimate" : measured == counted.count ? "measured" : "partly measured"
    }
    /// One app's visit length as every face writes it: "14 min a visit, measured over 6 visits", or
    /// "10 min a visit (estimate)".
    public static func visitText(seconds: TimeInterval, measured: Int) -> String {
        measured > 0
            ? "\(lengthText(seconds)) a visit, measured over \(measured) visit\(measured == 1 ? "" : "s")"
            : "\(lengthText(seconds)) a visit (estimate)"
    }
    /// A visit's length in words: "45 s" under a minute, else whole minutes ("14 min").
    public static func lengthText(_ seconds: TimeInterval) -> String {
        let whole = seconds.isFinite ? Int(min(max(seconds, 0), 1e9).rounded()) : 0
        return whole < 60 ? "\(whole) s" : "\(Int((Double(whole) / 60).rounded())) min"
    }

    /// What "Delayed" means in every face.
    public static let delayedMeaning = (
        term: "Delayed", meaning: "not opened after the pause, but tried again within 10 minutes: the pause only put the visit off"
    )

    /// Pauses that kept the person away for good: not opened, and not tried again soon after.
    public var keptAwaySessions: Int { max(0, notOpenedSessions - delayedSessions) }

    /// The day's time saved (`timeSavedMeaning`).
    public var timeSaved: TimeInterval { Double(keptAwaySessions) * savedPerVisit }

    /// Time saved over many days (and apps).
    public static func timeSaved(_ days: [UsageStatistics]) -> TimeInterval { days.reduce(0) { $0 + $1.timeSaved } }

    /// completed / total, 0…1.
    public var completionRate: Double { totalSessions > 0 ? Double(completedSessions) / Double(totalSessions) : 0 }
    /// Whether the day met the 60% completion target.
    public var meetsTarget: Bool { totalSessions > 0 && completionRate >= Self.completionTarget }

    private enum CodingKeys: String, CodingKey {
        case id, date, appId, totalSessions, completedSessions, exitedSessions, notOpenedSessions, delayedSessions, avgTimeSpent
        case streakCount, completionRate, meetsTarget, timeSaved
        case measuredVisits, visitSeconds, graceVisits, witheredTrees, savedPerVisit, savedPerVisitMeasured
    }

    /// What "Left" means in every face (pause statistics, the weekly review, the web).
    public static let leftMeaning = (term: "Left", meaning: "chose Exit to Focus, during the pause or after it")
    /// What "Not opened" means in every face.
    public static let notOpenedMeaning = (
        term: "Not opened", meaning: "the app or site was not opened after the pause (Exit to Focus, a tree instead, or walked away)"
    )

    public init(
        date: LocalDay, appId: String, totalSessions: Int, completedSessions: Int, exitedSessions: Int, notOpenedSessions: Int = 0,
        delayedSessions: Int = 0, avgTimeSpent: Double, streakCount: Int
    ) {
        self.delayedSessions = delayedSessions
        self.id = "\(date)_\(appId)"
        self.date = date
        self.appId = appId
        self.totalSessions = totalSessions
        self.completedSessions = completedSessions
        self.exitedSessions = exitedSessions
        self.notOpenedSessions = notOpenedSessions
        self.avgTimeSpent = avgTimeSpent
        self.streakCount = streakCount
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            date: try c.decode(LocalDay.self, forKey: .date), appId: try c.decode(String.self, forKey: .appId),
            totalSessions: try c.decode(Int.self, forKey: .totalSessions),
            completedSessions: try c.decode(Int.self, forKey: .completedSessions),
            exitedSessions: try c.decode(Int.self, forKey: .exitedSessions),
            notOpenedSessions: try c.decodeIfPresent(Int.self, forKey: .notOpenedSessions) ?? 0,
            delayedSessions: try c.decodeIfPresent(Int.self, forKey: .delayedSessions) ?? 0,
            avgTimeSpent: try c.decode(Double.self, forKey: .avgTimeSpent),
            streakCount: try c.decode(Int.self, forKey: .streakCount))
        measuredVisits = try c.decodeIfPresent(Int.self, forKey: .measuredVisits) ?? 0
        visitSeconds = try c.decodeIfPresent(Int.self, forKey: .visitSeconds) ?? 0
        graceVisits = try c.decodeIfPresent(Int.self, forKey: .graceVisits) ?? 0
        witheredTrees = try c.decodeIfPresent(Int.self, forKey: .witheredTrees) ?? 0
        savedPerVisit = try c.decodeIfPresent(TimeInterval.self, forKey: .savedPerVisit) ?? Self.visitEstimate
        savedPerVisitMeasured = try c.decodeIfPresent(Int.self, forKey: .savedPerVisitMeasured) ?? 0
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(date, forKey: .date)
        try c.encode(appId, forKey: .appId)
        try c.encode(totalSessions, forKey: .totalSessions)
        try c.encode(completedSessions, forKey: .completedSessions)
        try c.encode(exitedSessions, forKey: .exitedSessions)
        try c.encode(notOpenedSessions, forKey: .notOpenedSessions)
        try c.encode(delayedSessions, forKey: .delayedSessions)
        try c.encode(avgTimeSpent, forKey: .avgTimeSpent)
        try c.encode(streakCount, forKey: .streakCount)
        try c.encode(completionRate, forKey: .completionRate)
        try c.encode(meetsTarget, forKey: .meetsTarget)
        try c.encode(timeSaved, forKey: .timeSaved)
        try c.encode(measuredVisits, forKey: .measuredVisits)
        try c.encode(visitSeconds, forKey: .visitSeconds)
        try c.encode(graceVisits, forKey: .graceVisits)
        try c.encode(witheredTrees, forKey: .witheredTrees)
        try c.encode(savedPerVisit, forKey: .savedPerVisit)
        try c.encode(savedPerVisitMeasured, forKey: .savedPerVisitMeasured)
    }
}

extension UsageStatistics {
    /// Statistics per app per day, newest day first, with each day's streak.
    public static func derive(from counts: [UsageDayCounts], calendar: ZonedCalendar) -> [UsageStatistics] {
        var result: [UsageStatistics] = []
        for (appId, rows) in Dictionary(grouping: counts, by: \.appId) {
            let visit = UsageDayCounts.visitLength(rows)
            var streak = 0
            var previous: LocalDay?
            for row in rows.sorted(by: { $0.date < $1.date }) {
                if row.completed > 0 {
                    streak = previous.map { calendar.areConsecutive($0, row.date) } == true ? streak + 1 : 1
                    previous = row.date
                } else {
                    streak = 0
                    previous = nil
                }
                var day = UsageStatistics(
                    date: row.date, appId: appId, totalSessions: row.total, completedSessions: row.completed,
                    exitedSessions: row.exited, notOpenedSessions: row.notOpened, delayedSessions: row.delayed,
                    avgTimeSpent: row.finished > 0 ? Double(row.timeSpentSum) / Double(row.finished) : 0,
                    streakCount: streak)
                day.measuredVisits = row.measuredVisits
                day.visitSeconds = row.visitSeconds
                day.graceVisits = row.graceVisits
                day.witheredTrees = row.witheredTrees
                (day.savedPerVisit, day.savedPerVisitMeasured) = visit
                result.append(day)
            }
        }
        return result.sorted { ($0.date, $1.appId) > ($1.date, $0.appId) }
    }

    /// `exitedSessions` counts every pause the person left with "Exit to Focus" (seed 003): during the
    /// countdown or after it (outcome `exit_to_home`; an `exited` pause without an outcome, from an
    /// import, counts too; "plant a tree instead" does not). The SQL form of `GatewaySession.isExitToFocus`.
    public static let exitToFocusSQL = "(action_outcome IS 'exit_to_home' OR (completion_status IS 'exited' AND action_outcome IS NULL))"

    /// A finished pause whose outcome is not "proceed to the app": the SQL form of
    /// `GatewaySession.keptAway`.
    public static let notOpenedSQL = "(completion_status IS NOT NULL AND action_outcome IS NOT 'proceed_to_app')"

    /// A pause not followed by the app but by another try at it within `reopenWindow` of its end
    /// (of its countdown, if it never ended): the SQL form of `delayedIDs`. Over `gateway_session`
    /// unaliased; the index on (app_id, start_timestamp) answers the look-ahead.
    public static let delayedSQL = """
        (\(notOpenedSQL) AND EXISTS (SELECT 1 FROM gateway_session AS later WHERE later.app_id = gateway_session.app_id
            AND later.start_timestamp > gateway_session.start_timestamp
            AND later.start_timestamp <= coalesce(gateway_session.end_timestamp,
                gateway_session.start_timestamp + 1000 * gateway_session.duration_setting) + \(Int(reopenWindow * 1000))))
        """

    /// The pauses among `sessions` that only delayed a visit (`delayedSQL`, in Swift).
    public static func delayedIDs(_ sessions: [GatewaySession]) -> Set<UUID> {
        var delayed = Set<UUID>()
        for (_, tries) in Dictionary(grouping: sessions, by: \.appId) {
            let sorted = tries.sorted { $0.startTimestamp < $1.startTimestamp }
            for (index, pause) in sorted.enumerated() where pause.keptAway {
                let end = pause.endTimestamp ?? pause.startTimestamp.addingTimeInterval(TimeInterval(pause.durationSetting))
                if sorted[(index + 1)...].contains(where: {
                    $0.startTimestamp > pause.startTimestamp && $0.startTimestamp <= end.addingTimeInterval(reopenWindow)
                }) {
                    delayed.insert(pause.id)
                }
            }
        }
        return delayed
    }

    /// The same, straight from sessions.
    public static func derive(from sessions: [GatewaySession], calendar: ZonedCalendar) -> [UsageStatistics] {
        var counts: [String: UsageDayCounts] = [:]
        let delayed = delayedIDs(sessions)
        for s in sessions {
            let key = "\(s.localDay)_\(s.appId)"
            var c =
                counts[key]
                ?? UsageDayCounts(
                    date: s.localDay, appId: s.appId, total: 0, completed: 0, exited: 0, notOpened: 0, timeSpentSum: 0, finished: 0)
            c.total += 1
            if s.completionStatus == .completed { c.completed += 1 }
            if s.isExitToFocus { c.exited += 1 }
            if s.keptAway { c.notOpened += 1 }
            if delayed.contains(s.id) { c.delayed += 1 }
            if s.emergencyPass == true { c.emergency += 1 }
            if s.witheredTree == true { c.witheredTrees += 1 }
            if let seconds = s.visitSeconds {
                c.measuredVisits += 1
                c.visitSeconds += seconds
            }
            c.graceVisits += s.graceVisits ?? 0
            if s.completionStatus != nil {
                c.finished += 1
                c.timeSpentSum += s.timeSpent
            }
            counts[key] = c
        }
        return derive(from: Array(counts.values), calendar: calendar)
    }

    /// The first local day still kept on `today`: 30 days of history, today included.
    public static func retentionStart(today: LocalDay) -> LocalDay { today.adding(days: -(retentionDays - 1)) }
}
