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

    /// What one visit not made is counted as in "time saved": ten minutes, a short visit to a feed.
    /// An estimate, and said to be one wherever the figure shows.
    public static let visitEstimate: TimeInterval = 10 * 60
    /// How soon after a pause another try at the same app means the pause only delayed it.
    public static let reopenWindow: TimeInterval = 10 * 60
    /// What "Time saved" means in every face.
    public static let timeSavedMeaning = (
        term: "Time saved",
        meaning: "an estimate: 10 minutes for each pause after which the app or site was neither opened nor tried again within 10 minutes"
    )
    /// What "Delayed" means in every face.
    public static let delayedMeaning = (
        term: "Delayed", meaning: "not opened after the pause, but tried again within 10 minutes: the pause only put the visit off"
    )

    /// Pauses that kept the person away for good: not opened, and not tried again soon after.
    public var keptAwaySessions: Int { max(0, notOpenedSessions - delayedSessions) }

    /// The day's time saved (`timeSavedMeaning`).
    public var timeSaved: TimeInterval { Double(keptAwaySessions) * Self.visitEstimate }

    /// Time saved over many days (and apps).
    public static func timeSaved(_ days: [UsageStatistics]) -> TimeInterval { days.reduce(0) { $0 + $1.timeSaved } }

    /// completed / total, 0…1.
    public var completionRate: Double { totalSessions > 0 ? Double(completedSessions) / Double(totalSessions) : 0 }
    /// Whether the day met the 60% completion target.
    public var meetsTarget: Bool { totalSessions > 0 && completionRate >= Self.completionTarget }

    private enum CodingKeys: String, CodingKey {
        case id, date, appId, totalSessions, completedSessions, exitedSessions, notOpenedSessions, delayedSessions, avgTimeSpent
        case streakCount, completionRate, meetsTarget, timeSaved
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
    }
}

/// Counts of one app's pauses on one local day: what the store aggregates in SQL.
public struct UsageDayCounts: Hashable, Sendable {
    public var date: LocalDay
    public var appId: String
    public var total: Int
    public var completed: Int
    public var exited: Int
    /// Finished pauses not followed by the app (`UsageStatistics.notOpenedSQL`).
    public var notOpened: Int
    /// Of those, tried again within 10 minutes (`UsageStatistics.delayedSQL`).
    public var delayed: Int
    /// Sum of time spent over finished sessions, and how many finished.
    public var timeSpentSum: Int
    public var finished: Int
    /// Pauses that used the week's emergency pass.
    public var emergency: Int

    public init(
        date: LocalDay, appId: String, total: Int, completed: Int, exited: Int, notOpened: Int = 0, delayed: Int = 0, timeSpentSum: Int,
        finished: Int, emergency: Int = 0
    ) {
        self.delayed = delayed
        self.emergency = emergency
        self.date = date
        self.appId = appId
        self.total = total
        self.completed = completed
        self.exited = exited
        self.notOpened = notOpened
        self.timeSpentSum = timeSpentSum
        self.finished = finished
    }
}

extension UsageStatistics {
    /// Statistics per app per day, newest day first, with each day's streak.
    public static func derive(from counts: [UsageDayCounts], calendar: ZonedCalendar) -> [UsageStatistics] {
        var result: [UsageStatistics] = []
        for (appId, rows) in Dictionary(grouping: counts, by: \.appId) {
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
                result.append(
                    UsageStatistics(
                        date: row.date, appId: appId, totalSessions: row.total, completedSessions: row.completed,
                        exitedSessions: row.exited, notOpenedSessions: row.notOpened, delayedSessions: row.delayed,
                        avgTimeSpent: row.finished > 0 ? Double(row.timeSpentSum) / Double(row.finished) : 0,
                        streakCount: streak))
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
