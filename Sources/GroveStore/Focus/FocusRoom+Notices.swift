import Foundation
import GRDB
import GroveCore

/// The "tree planted" notice of a completed session, given once per device by whoever notices first.
extension FocusRoom {
    /// Takes the right to announce a completed session: true once, for whoever asks first (a detached
    /// waiter, the live terminal, the server, a page); false for the others, and for a session that is
    /// not completed (an abandoned one never rings: seed 002).
    public func claimNotice(sessionId: UUID) throws -> Bool {
        let now = environment.now().groveRoundedToMillis.groveMillis
        return try write { db in
            try db.cachedExecute(
                """
                INSERT INTO focus_notice (session_id, noticed_at)
                SELECT id, ? FROM focus_session WHERE id = ? AND state = 'completed'
                ON CONFLICT (session_id) DO NOTHING
                """, [now, sessionId.uuidString])
            return db.changesCount > 0
        }
    }

    /// The session that completed within `FocusRoom.noticeWindow` and was not announced yet (settling an
    /// open one that reached its length first), and when the open session will fall due. Reads by the
    /// (state, end_time) index: one row, whatever the history.
    public func notices() throws -> (due: FocusSession?, next: Date?) {
        let open = try settle()
        let now = environment.now()
        let since = now.addingTimeInterval(-FocusRoom.noticeWindow).groveRoundedToMillis.groveMillis
        let due = try writer.snapshotRead { db in
            try FocusSessionRecord.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT s.* FROM focus_session s
                        WHERE s.state = 'completed' AND s.end_time >= ?
                          AND NOT EXISTS (SELECT 1 FROM focus_notice n WHERE n.session_id = s.id)
                        ORDER BY s.end_time DESC LIMIT 1
                        """), arguments: [since])?.model()
        }
        return (due, open.flatMap { $0.state == .active ? $0.dueAt : nil })
    }
}
