import Foundation
import GRDB
import GroveCore

extension AppDatabase {

    /// The pause length for `appId` now: the setting, or — with adaptive friction on — the adapted
    /// length after this week's review (made here, at most once every 7 days, from two weeks of
    /// pauses read by the (app, day) index: O(days), never O(pauses ever)).
    func pauseDuration(appId: String, base: Int, calendar: ZonedCalendar, _ db: Database) throws -> Int {
        guard let friction = try FrictionRecord.fetchOne(db, key: appId)?.friction else { return base }
        let today = calendar.localDay(of: environment.now())
        guard friction.isDue(today: today) else { return friction.effectiveDuration(base: base) }
        let (recent, earlier) = AdaptiveFriction.windows(today: today)
        let reviewed = friction.reviewed(
            today: today, base: base, recent: try exitWindow(appId: appId, days: recent, db),
            earlier: try exitWindow(appId: appId, days: earlier, db))
        try FrictionRecord(reviewed).update(db)
        return reviewed.duration
    }

    /// A pause that only delayed the visit (tried again within 10 minutes) did not work: it is not
    /// counted with the exits.
    private func exitWindow(appId: String, days: ClosedRange<LocalDay>, _ db: Database) throws -> AdaptiveFriction.Window {
        let row = try Row.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT total(completion_status IS NOT NULL) AS finished,
                           total(action_outcome IN ('exit_to_home', 'deepen_pause') AND NOT \(UsageStatistics.delayedSQL)) AS exits
                    FROM gateway_session WHERE app_id = ? AND local_day BETWEEN ? AND ?
                    """), arguments: [appId, days.lowerBound.description, days.upperBound.description])
        func count(_ column: String) -> Int { (row?[column] as Double?).map { Int($0) } ?? 0 }
        return AdaptiveFriction.Window(finished: count("finished"), exits: count("exits"))
    }
}

/// A row of `pause_friction`.
struct FrictionRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "pause_friction"
    var friction: AdaptiveFriction

    init(_ friction: AdaptiveFriction) { self.friction = friction }

    init(row: Row) throws {
        let day: String? = row["reviewed_day"]
        friction = AdaptiveFriction(
            appId: row["app_id"], duration: row["duration"], reviewedDay: day.flatMap(LocalDay.init),
            lastChange: row["last_change"], recentExitRate: row["recent_exit_rate"], earlierExitRate: row["earlier_exit_rate"])
    }

    func encode(to c: inout PersistenceContainer) {
        c["app_id"] = friction.appId; c["duration"] = friction.duration; c["reviewed_day"] = friction.reviewedDay?.description
        c["last_change"] = friction.lastChange; c["recent_exit_rate"] = friction.recentExitRate;
        c["earlier_exit_rate"] = friction.earlierExitRate
    }
}

extension PauseRoom {
    /// The apps with adaptive friction on, each with the length it reached and its last review.
    public func friction() throws -> [AdaptiveFriction] {
        try writer.snapshotRead { db in try FrictionRecord.order(sql: "app_id").fetchAll(db).map(\.friction) }
    }

    /// Switches adaptive friction on (starting from the length you set) or off for an app.
    @discardableResult
    public func setFriction(appId: String, _ enabled: Bool) throws -> AdaptiveFriction? {
        try write { db in
            guard try SocialAppRecord.live(db, id: appId) != nil else { throw PauseValidationError.unknownApp(appId) }
            guard enabled else {
                try FrictionRecord.deleteOne(db, key: appId)
                return nil
            }
            if let current = try FrictionRecord.fetchOne(db, key: appId) { return current.friction }
            let friction = AdaptiveFriction(appId: appId, duration: try database.pausePreferences(db).timerDuration)
            try FrictionRecord(friction).insert(db)
            return friction
        }
    }
}
