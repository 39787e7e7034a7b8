import Foundation
import GRDB
import GroveCore

extension AppDatabase {
    /// Each app's pauses per local day, counted in SQL over the 30 days kept (one row per app and
    /// day: bounded by the retention window, whatever the history).
    func pauseDayCounts(appId: String?, _ db: Database) throws -> [UsageDayCounts] {
        var sql = """
            SELECT local_day, app_id, count(*) AS total,
                   total(completion_status IS 'completed') AS completed, total(\(UsageStatistics.exitToFocusSQL)) AS exited,
                   total(\(UsageStatistics.notOpenedSQL)) AS not_opened, total(\(UsageStatistics.delayedSQL)) AS delayed,
                   total(emergency_pass IS 1) AS emergency,
                   coalesce(sum(CASE WHEN completion_status IS NOT NULL THEN time_spent END), 0) AS spent,
                   total(completion_status IS NOT NULL) AS finished,
                   total(visit_seconds IS NOT NULL) AS measured, coalesce(sum(visit_seconds), 0) AS visit_seconds,
                   coalesce(sum(grace_visits), 0) AS grace_visits, total(withered_tree IS 1) AS withered
            FROM gateway_session
            """
        var arguments: StatementArguments = []
        if let appId {
            sql += " WHERE app_id = ?"
            arguments += [appId]
        }
        sql += " GROUP BY app_id, local_day"
        return try db.cachedRows(sql, arguments).compactMap { row -> UsageDayCounts? in
            guard let day = LocalDay(row["local_day"] as String) else { return nil }
            // Every aggregate has a value for a day of open pauses only (total() is 0.0, never NULL);
            // read optionally all the same, so that no row can trap.
            func count(_ column: String) -> Int { (row[column] as Double?).map { Int($0) } ?? 0 }
            var counts = UsageDayCounts(
                date: day, appId: row["app_id"], total: row["total"] as Int? ?? 0, completed: count("completed"),
                exited: count("exited"), notOpened: count("not_opened"), delayed: count("delayed"),
                timeSpentSum: row["spent"] as Int? ?? 0, finished: count("finished"), emergency: count("emergency"))
            counts.measuredVisits = count("measured")
            counts.visitSeconds = row["visit_seconds"] as Int? ?? 0
            counts.graceVisits = row["grace_visits"] as Int? ?? 0
            counts.witheredTrees = count("withered")
            return counts
        }
    }

    /// Each app's gate loosenings per local day (`GateChange`), over the 30 days kept or the days
    /// from `from` to `to` (one row per app and day: the weeks and the review both read these).
    func gateChangeCounts(appId: String?, from: LocalDay? = nil, to: LocalDay? = nil, _ db: Database) throws -> [GateChangeCounts] {
        let sql = """
            SELECT local_day, app_id, total(kind = 'gate_off') AS gates_off, total(kind <> 'gate_off') AS loosened
            FROM gate_change WHERE (?1 IS NULL OR app_id = ?1) AND local_day BETWEEN ?2 AND ?3 GROUP BY app_id, local_day
            """
        let arguments: StatementArguments = [appId, from?.description ?? "0000-00-00", to?.description ?? "9999-12-31"]
        return try db.cachedRows(sql, arguments).compactMap { row -> GateChangeCounts? in
            guard let day = LocalDay(row["local_day"] as String) else { return nil }
            func count(_ column: String) -> Int { (row[column] as Double?).map { Int($0) } ?? 0 }
            return GateChangeCounts(date: day, appId: row["app_id"], gatesOff: count("gates_off"), blocksLoosened: count("loosened"))
        }
    }
}

extension PauseRoom {
    /// Usage per app per local day, derived from sessions on read (grouped in SQL), newest first;
    /// abandoned pauses count as timeouts and days past the 30-day window are gone.
    public func statistics(appId: String? = nil, from: LocalDay? = nil, to: LocalDay? = nil) throws -> [UsageStatistics] {
        try RangeRule.check(from: from, to: to)
        try settle()
        return try writer.snapshotRead { db in
            // Streaks look back, so the day filter applies after deriving.
            let counts = try database.pauseDayCounts(appId: appId, db)
            return UsageStatistics.derive(from: counts, calendar: try calendar(db)).filter { stat in
                (from.map { stat.date >= $0 } ?? true) && (to.map { stat.date <= $0 } ?? true)
            }
        }
    }

    /// Each app's pause figures week by week (`PauseWeek`), newest first: the weeks within the 30
    /// days kept, this one so far, each against the week before.
    public func weeks(appId: String? = nil) throws -> [PauseWeek] {
        try settle()
        return try writer.snapshotRead { db in
            let calendar = try calendar(db)
            return PauseWeek.derive(
                from: try database.pauseDayCounts(appId: appId, db), changes: try database.gateChangeCounts(appId: appId, db),
                calendar: calendar, today: calendar.localDay(of: environment.now()))
        }
    }
}
