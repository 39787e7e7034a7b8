import Foundation
import GRDB
import GroveCore

extension AppDatabase {
    /// When the store next needs settling with nothing written meanwhile: the running focus session
    /// falls due, an open pause passes its grace, or a local day ends (a pause leaves the 30 days).
    /// A background service sleeps until then or the next commit, whichever comes first, instead of
    /// looking every second.
    public func nextSettleInstant() throws -> Date {
        try writer.snapshotRead { db in
            let calendar = try calendar(db)
            let now = environment.now()
            let midnight = calendar.startOfDay(calendar.nextDay(after: calendar.localDay(of: now)))
            var next = midnight
            if let record = try FocusSessionRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM focus_session WHERE state = 'active'")) {
                // The session's time as `focus.settle` counts it (the monotonic clock since its
                // anchor), so that the instant it falls due is the instant settling completes it.
                let counted = environment.clockReading().resolved(since: record.anchor).now
                next = min(next, now.addingTimeInterval(try record.model().untilEnd(at: counted)))
            }
            let pauseDeadline = try Int64.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT min(start_timestamp + (duration_setting + \(GatewaySession.gracePeriod)) * 1000)
                        FROM gateway_session WHERE completion_status IS NULL
                        """))
            if let pauseDeadline { next = min(next, Date(groveMillis: pauseDeadline)) }
            return next
        }
    }
}
