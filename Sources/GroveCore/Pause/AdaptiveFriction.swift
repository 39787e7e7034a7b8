import Foundation

/// Adaptive friction for one app (a Grove addition; no peer has it): when the pause stops working —
/// this week you went through to the app more often than the week before — the pause for that app
/// lengthens by a step; when it works better, it relaxes. Never shorter than the length you set,
/// never longer than 45 s. Off by default, per app.
public struct AdaptiveFriction: Sendable, Equatable, Codable {
    /// The pauses of one stretch of days that ended, and how many of them ended without opening the app.
    public struct Window: Sendable, Equatable, Codable {
        public var finished: Int
        /// Ended with Exit or "plant a tree instead", before or after 0:00.
        public var exits: Int

        public init(finished: Int, exits: Int) {
            self.finished = finished
            self.exits = exits
        }

        /// exits ÷ finished, when there were enough pauses for a rate to mean something.
        public var exitRate: Double? { finished >= AdaptiveFriction.minimumPauses ? Double(exits) / Double(finished) : nil }
    }

    public var appId: String
    /// The pause length this app gets now, seconds.
    public var duration: Int
    /// The local day of the last review (a review happens at most once every 7 days).
    public var reviewedDay: LocalDay?
    /// What the last review did: +5, −5 or 0 seconds.
    public var lastChange: Int
    /// The exit rates the last review compared: the 7 days before it, and the 7 before those.
    public var recentExitRate: Double?
    public var earlierExitRate: Double?

    /// One step, seconds.
    public static let step = 5
    /// Fewer ended pauses in a week than this and the week says nothing.
    public static let minimumPauses = 5
    /// The rates must differ by at least this much (5 points) to move the length.
    public static let threshold = 0.05
    public static let reviewInterval = 7

    public init(
        appId: String, duration: Int, reviewedDay: LocalDay? = nil, lastChange: Int = 0,
        recentExitRate: Double? = nil, earlierExitRate: Double? = nil
    ) {
        self.appId = appId
        self.duration = duration
        self.reviewedDay = reviewedDay
        self.lastChange = lastChange
        self.recentExitRate = recentExitRate
        self.earlierExitRate = earlierExitRate
    }

    /// Whether a review is due on `today`.
    public func isDue(today: LocalDay) -> Bool { reviewedDay.map { $0.days(to: today) >= Self.reviewInterval } ?? true }

    /// The days a review on `today` compares: the last full week, and the week before it.
    public static func windows(today: LocalDay) -> (recent: ClosedRange<LocalDay>, earlier: ClosedRange<LocalDay>) {
        (today.adding(days: -7)...today.adding(days: -1), today.adding(days: -14)...today.adding(days: -8))
    }

    /// The review on `today`: the exit rate fell by 5 points or more → one step longer; rose by as
    /// much → one step shorter; otherwise (or with too few pauses to tell) unchanged. Always within
    /// `base`…45 s, where `base` is the length the person set.
    public func reviewed(today: LocalDay, base: Int, recent: Window, earlier: Window) -> AdaptiveFriction {
        var next = self
        next.reviewedDay = today
        next.recentExitRate = recent.exitRate
        next.earlierExitRate = earlier.exitRate
        var change = 0
        if let now = recent.exitRate, let before = earlier.exitRate {
            if now <= before - Self.threshold { change = Self.step } else if now >= before + Self.threshold { change = -Self.step }
        }
        let upper = GatewaySession.durationRange.upperBound
        let lower = min(max(base, GatewaySession.durationRange.lowerBound), upper)
        let from = next.effectiveDuration(base: base)
        next.duration = min(upper, max(lower, from + change))
        next.lastChange = next.duration - from
        return next
    }

    /// What the last review saw and did, for every face: "+5 s on 2025-06-16: 20% of pauses ended
    /// without opening it (80% the week before)".
    public var reviewDescription: String {
        guard let reviewedDay else { return "not reviewed yet" }
        let percent = { (rate: Double?) in rate.map { "\(Int(($0 * 100).rounded()))%" } ?? "too few pauses" }
        let change = lastChange == 0 ? "unchanged" : "\(lastChange > 0 ? "+" : "−")\(abs(lastChange)) s"
        return
            "\(change) on \(reviewedDay): \(percent(recentExitRate)) of pauses ended without opening it (\(percent(earlierExitRate)) the week before)"
    }

    /// The length a pause gets: the adapted one, but never below what the person set since.
    public func effectiveDuration(base: Int) -> Int {
        min(GatewaySession.durationRange.upperBound, max(duration, base))
    }
}
