import Foundation
import GRDB
import GroveCore

/// Writes focus sessions in the caller's transaction with one prepared statement bound through
/// SQLite's C API (boxing twelve values a row into `StatementArguments` costs as much as the insert).
///
/// `ON CONFLICT DO UPDATE`, not REPLACE, so that the per-day totals' update triggers fire. For bulk
/// writes the triggers can be set aside: `finish()` then rebuilds `focus_day` and `focus_day_tag` with a GROUP BY each and
/// puts them back, the same result several times faster.
final class SessionWriter {
    private let db: Database
    private let statement: Statement
    private let bulk: BulkStatement
    /// The triggers' own SQL, read back from the schema when set aside (never drifts from the migrations).
    private var setAside: [String]?
    /// `INSERT … DO NOTHING`, prepared on first use (imports that keep what is stored).
    private var insertStatement: Statement?
    private var insertBulk: BulkStatement?

    init(_ db: Database) throws {
        self.db = db
        statement = try db.makeStatement(sql: """
            INSERT INTO focus_session (id, start_time, end_time, state, duration_ms, paused_ms, planned_ms, paused_at, created_at,
                time_zone, end_day, clock_uncertain, tags)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET start_time = excluded.start_time, end_time = excluded.end_time, state = excluded.state,
                duration_ms = excluded.duration_ms, paused_ms = excluded.paused_ms, planned_ms = excluded.planned_ms,
                paused_at = excluded.paused_at, created_at = excluded.created_at, time_zone = excluded.time_zone,
                end_day = excluded.end_day, clock_uncertain = excluded.clock_uncertain, tags = excluded.tags
            """)
        bulk = BulkStatement(statement.sqliteStatement, connection: db.sqliteConnection)
    }

    /// Drops the per-day triggers until `finish()` (the totals are recomputed once at the end). The
    /// sync capture triggers stay: an import into a linked store goes out like any other change.
    func setTriggersAside() throws {
        guard setAside == nil else { return }
        let triggers = try Row.fetchAll(db, sql: """
            SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'focus_session' AND name LIKE 'focus\\_day\\_%' ESCAPE '\\'
            """)
        for trigger in triggers { try db.execute(sql: "DROP TRIGGER \(trigger[0] as String)") }
        setAside = triggers.map { $0[1] }
    }

    /// Inserts or replaces one (validated) session; `idText` is its id as `uuidString` writes it,
    /// when the caller has it already (formatting a UUID costs a `sprintf`).
    func upsert(_ s: FocusSession, idText: String? = nil) throws {
        try bind(s, idText: idText, to: bulk)
        do {
            try bulk.step()
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT && (error.message ?? "").contains("focus_session_one_open") {
            throw FocusError.sessionAlreadyOpen
        }
    }

    private func bind(_ s: FocusSession, idText: String?, to bulk: BulkStatement) throws {
        bulk.reset()
        bulk.bind(1, idText ?? s.id.uuidString)
        bulk.bind(2, s.startTime.groveMillis)
        bulk.bind(3, s.endTime?.groveMillis)
        bulk.bind(4, s.state.rawValue)
        bulk.bind(5, s.duration.groveMillis)
        bulk.bind(6, s.pausedDuration.groveMillis)
        bulk.bind(7, s.plannedDuration.groveMillis)
        bulk.bind(8, s.pausedAt?.groveMillis)
        bulk.bind(9, s.createdAt.groveMillis)
        bulk.bind(10, s.timeZoneIdentifier)
        bulk.bind(11, s.endDay?.description)
        bulk.bind(12, s.clockUncertain ? 1 : 0)
        bulk.bind(13, TagsColumn.encode(s.tags))
    }

    /// Inserts a (validated) session unless one with its id is stored; whether it did.
    func insertNew(_ s: FocusSession) throws -> Bool {
        if insertStatement == nil {
            let made = try db.makeStatement(sql: """
                INSERT INTO focus_session (id, start_time, end_time, state, duration_ms, paused_ms, planned_ms, paused_at, created_at,
                    time_zone, end_day, clock_uncertain, tags)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (id) DO NOTHING
                """)
            insertStatement = made
            insertBulk = BulkStatement(made.sqliteStatement, connection: db.sqliteConnection)
        }
        guard let insert = insertBulk else { return false }
        try bind(s, idText: nil, to: insert)
        let before = db.totalChangesCount
        do {
            try insert.step()
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT && (error.message ?? "").contains("focus_session_one_open") {
            throw FocusError.sessionAlreadyOpen
        }
        return db.totalChangesCount > before
    }

    /// Rebuilds the per-day totals and restores the triggers if they were set aside.
    func finish() throws {
        bulk.reset()
        insertBulk?.reset()
        guard let triggers = setAside else { return }
        try db.execute(sql: """
            DELETE FROM focus_day;
            INSERT INTO focus_day (day, trees, abandoned, focus_ms)
            SELECT end_day, sum(state = 'completed'), sum(state = 'abandoned'),
                   sum(CASE WHEN state = 'completed' THEN duration_ms ELSE 0 END)
            FROM focus_session WHERE end_day IS NOT NULL GROUP BY end_day;
            DELETE FROM focus_day_tag;
            -- The GROUP BY sorts in memory up to the cache size before it spills to a temporary file:
            -- a small cache for it keeps a million-row rebuild within the import's memory bound.
            PRAGMA cache_size = -2048;
            INSERT INTO focus_day_tag (tag, day, trees, abandoned, focus_ms)
            SELECT j.value, s.end_day, sum(s.state = 'completed'), sum(s.state = 'abandoned'),
                   sum(CASE WHEN s.state = 'completed' THEN s.duration_ms ELSE 0 END)
            FROM focus_session s, json_each(s.tags) j
            WHERE s.end_day IS NOT NULL AND s.tags IS NOT NULL
              -- A tag counted once per session, however often its array repeats it (as the triggers' DISTINCT).
              AND NOT EXISTS (SELECT 1 FROM json_each(s.tags) k WHERE k.key < j.key AND k.value = j.value)
            GROUP BY s.end_day, j.value;
            PRAGMA cache_size = \(AppDatabase.writerCacheSize);
            """)
        for sql in triggers { try db.execute(sql: sql) }
        setAside = nil
    }
}
