import Foundation

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
    /// Pauses ended with Proceed whose visit was measured, and its seconds (`GatewaySession.visitSeconds`).
    public var measuredVisits = 0
    public var visitSeconds = 0
    /// Visits grace windows let through (`GatewaySession.graceVisits`).
    public var graceVisits = 0
    /// Pauses opened by letting a tree wither (`GatewaySession.witheredTree`).
    public var witheredTrees = 0

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

extension UsageDayCounts {
    /// One app's visit length from its days' counts (all the days kept): the mean measured visit and
    /// how many visits it is from, or the 10-minute estimate and 0. The days and the weeks of the
    /// same app use the same length, so that their times saved add up.
    public static func visitLength(_ rows: [UsageDayCounts]) -> (seconds: TimeInterval, measured: Int) {
        let measured = rows.reduce(0) { $0 + $1.measuredVisits }
        guard measured > 0 else { return (UsageStatistics.visitEstimate, 0) }
        return (Double(rows.reduce(0) { $0 + $1.visitSeconds }) / Double(measured), measured)
    }
}
