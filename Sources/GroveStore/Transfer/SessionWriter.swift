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
    /// The multi-row `INSERT … DO NOTHING`, prepared on first use.
    private var batchStatement: Statement?
    private var batchBulk: BulkStatement?
    /// The multi-row upsert, prepared on first use.
    private var upsertBatchStatement: Statement?
    private var upsertBatchBulk: BulkStatement?
    /// What the inserts set aside from the triggers added, when only adding (`setTriggersAside(adding:)`).
    private var totals: AddedDayTotals?
    /// The store held no session when the writer began, so every session `upsert` writes is new
    /// unless the caller's input repeats an id: the upserts then only insert (a repeated id is left
    /// as first written and noted in `metWrittenId`, for the caller to refuse), and the totals set
    /// aside are summed as the rows go instead of recounted from every stored session at the end.
    let intoEmptyStore: Bool
    /// An `upsert` met an id written before (only `intoEmptyStore`): the input repeats it.
    private(set) var metWrittenId = false
    /// What an upsert does with a stored id.
    private var onConflict: String { Self.onConflict(intoEmptyStore: intoEmptyStore) }
    private static func onConflict(intoEmptyStore: Bool) -> String { intoEmptyStore ? "DO NOTHING" : replaceAll }

    init(_ db: Database, intoEmptyStore: Bool = false) throws {
        self.db = db
        self.intoEmptyStore = intoEmptyStore
        statement = try db.makeStatement(sql: Self.insertSQL(rows: 1, onConflict: Self.onConflict(intoEmptyStore: intoEmptyStore)))
        bulk = BulkStatement(statement.sqliteStatement, connection: db.sqliteConnection)
    }

    /// Drops the per-day triggers until `finish()`. The sync capture triggers stay: an import into a
    /// linked store goes out like any other change.
    ///
    /// `adding`: the writer will only insert new sessions (`insertNew`), so their totals are summed
    /// as they go in and added at the end (`AddedDayTotals`): the cost follows the import, not the store.
    /// Otherwise (or once `upsert` replaces a stored session, whose old totals are unknown here) the
    /// totals are recomputed from every stored session at the end.
    func setTriggersAside(adding: Bool = false) throws {
        guard setAside == nil else { return }
        if adding { totals = AddedDayTotals() }
        let triggers = try Row.fetchAll(
            db,
            sql: """
                SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'focus_session' AND name LIKE 'focus\\_day\\_%' ESCAPE '\\'
                """)
        for trigger in triggers { try db.execute(sql: "DROP TRIGGER \(trigger[0] as String)") }
        setAside = triggers.map { $0[1] }
    }

    /// Inserts or replaces one (validated) session; `idText` is its id as `uuidString` writes it,
    /// when the caller has it already (formatting a UUID costs a `sprintf`).
    func upsert(_ s: FocusSession, idText: String? = nil) throws {
        if !intoEmptyStore { totals = nil }
        try bind(s, idText: idText, to: bulk)
        do {
            try bulk.step()
        } catch let error as DatabaseError
            where error.resultCode == .SQLITE_CONSTRAINT && (error.message ?? "").contains("focus_session_one_open")
        {
            throw FocusError.sessionAlreadyOpen
        }
        if intoEmptyStore && db.changesCount == 0 {
            metWrittenId = true
            return
        }
        try totals?.add(s, db)
    }

    private func bind(_ s: FocusSession, idText: String?, to bulk: BulkStatement) throws {
        bulk.reset()
        Self.bindValues(s, idText: idText, to: bulk, row: 0)
    }

    /// Binds `s` as the `row`th row of values (14 parameters a row, in `focus_session`'s column order).
    static func bindValues(_ s: FocusSession, idText: String?, to bulk: BulkStatement, row: Int32) {
        let at = row * 14
        bulk.bind(at + 1, idText ?? Self.text(of: s.id))
        bulk.bind(at + 2, s.startTime.groveMillis)
        bulk.bind(at + 3, s.endTime?.groveMillis)
        bulk.bind(at + 4, s.state.rawValue)
        bulk.bind(at + 5, s.duration.groveMillis)
        bulk.bind(at + 6, s.pausedDuration.groveMillis)
        bulk.bind(at + 7, s.plannedDuration.groveMillis)
        bulk.bind(at + 8, s.pausedAt?.groveMillis)
        bulk.bind(at + 9, s.createdAt.groveMillis)
        bulk.bind(at + 10, s.timeZoneIdentifier)
        bulk.bind(at + 11, s.endDay?.description)
        bulk.bind(at + 12, s.clockUncertain ? 1 : 0)
        bulk.bind(at + 13, TagsColumn.encode(s.tags))
        bulk.bind(at + 14, s.openEnded ? 1 : 0)
    }

    /// Inserts or replaces (validated) sessions, each with its id as text: a full batch as one
    /// statement (see `insertNew(_:)`). If the statement fails (an open session where one is open
    /// already, say), it changed nothing and the rows go one by one, so that the error is the row's own.
    func upsert(_ batch: [(session: FocusSession, idText: String)]) throws {
        guard batch.count == Self.batchSize else {
            for (session, idText) in batch { try upsert(session, idText: idText) }
            return
        }
        if !intoEmptyStore { totals = nil }
        if upsertBatchBulk == nil {
            let made = try db.makeStatement(sql: Self.insertSQL(rows: Self.batchSize, onConflict: onConflict))
            upsertBatchStatement = made
            upsertBatchBulk = BulkStatement(made.sqliteStatement, connection: db.sqliteConnection)
        }
        guard let statement = upsertBatchBulk else {
            for (session, idText) in batch { try upsert(session, idText: idText) }
            return
        }
        statement.reset()
        for (row, item) in batch.enumerated() { Self.bindValues(item.session, idText: item.idText, to: statement, row: Int32(row)) }
        do {
            try statement.step()
        } catch {
            statement.reset()
            for (session, idText) in batch { try upsert(session, idText: idText) }
            return
        }
        guard !intoEmptyStore || db.changesCount == batch.count else {
            metWrittenId = true
            return
        }
        for (session, _) in batch { try totals?.add(session, db) }
    }

    /// Every statement here: `rows` sessions' values (14 parameters each), and what a stored id does.
    private static func insertSQL(rows: Int, onConflict: String) -> String {
        let values = Array(repeating: "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", count: rows).joined(separator: ", ")
        return """
            INSERT INTO focus_session (id, start_time, end_time, state, duration_ms, paused_ms, planned_ms, paused_at, created_at,
                time_zone, end_day, clock_uncertain, tags, open_ended)
            VALUES \(values)
            ON CONFLICT (id) \(onConflict)
            """
    }

    /// `ON CONFLICT` replacing every column (not REPLACE: the per-day update triggers must fire).
    private static let replaceAll = """
        DO UPDATE SET start_time = excluded.start_time, end_time = excluded.end_time, state = excluded.state,
            duration_ms = excluded.duration_ms, paused_ms = excluded.paused_ms, planned_ms = excluded.planned_ms,
            paused_at = excluded.paused_at, created_at = excluded.created_at, time_zone = excluded.time_zone,
            end_day = excluded.end_day, clock_uncertain = excluded.clock_uncertain, tags = excluded.tags,
            open_ended = excluded.open_ended
        """

    /// Rows a multi-row insert takes at once.
    static let batchSize = 32

    /// Inserts (validated) sessions unless one with the same id is stored; whether each was. A full
    /// batch is one statement: SQLite's cost per statement (seven cursors opened and closed, the
    /// program started and halted) was as much again as the inserting itself. If any row of the
    /// batch was there already, the statement is undone (a savepoint) and the rows go one by one,
    /// so that each is told apart.
    func insertNew(_ batch: [FocusSession]) throws -> [Bool] {
        guard batch.count == Self.batchSize else { return try batch.map(insertNew) }
        if batchBulk == nil {
            let made = try db.makeStatement(sql: Self.insertSQL(rows: Self.batchSize, onConflict: "DO NOTHING"))
            batchStatement = made
            batchBulk = BulkStatement(made.sqliteStatement, connection: db.sqliteConnection)
        }
        guard let insert = batchBulk else { return try batch.map(insertNew) }
        try db.execute(sql: "SAVEPOINT grove_session_batch")
        insert.reset()
        for (row, session) in batch.enumerated() { Self.bindValues(session, idText: nil, to: insert, row: Int32(row)) }
        do {
            try insert.step()
        } catch {
            try db.execute(sql: "ROLLBACK TO grove_session_batch; RELEASE grove_session_batch")
            // A constraint (an open session, say) is the row's own: the rows one by one name it.
            return try batch.map(insertNew)
        }
        // Rows the statement itself inserted (not the per-day triggers').
        if db.changesCount == batch.count {
            try db.execute(sql: "RELEASE grove_session_batch")
            for session in batch { try totals?.add(session, db) }
            return Array(repeating: true, count: batch.count)
        }
        try db.execute(sql: "ROLLBACK TO grove_session_batch; RELEASE grove_session_batch")
        return try batch.map(insertNew)
    }

    /// Inserts a (validated) session unless one with its id is stored; whether it did.
    func insertNew(_ s: FocusSession) throws -> Bool {
        if insertStatement == nil {
            let made = try db.makeStatement(sql: Self.insertSQL(rows: 1, onConflict: "DO NOTHING"))
            insertStatement = made
            insertBulk = BulkStatement(made.sqliteStatement, connection: db.sqliteConnection)
        }
        guard let insert = insertBulk else { return false }
        try bind(s, idText: nil, to: insert)
        let before = db.totalChangesCount
        do {
            try insert.step()
        } catch let error as DatabaseError
            where error.resultCode == .SQLITE_CONSTRAINT && (error.message ?? "").contains("focus_session_one_open")
        {
            throw FocusError.sessionAlreadyOpen
        }
        guard db.totalChangesCount > before else { return false }
        try totals?.add(s, db)
        return true
    }

    /// Rebuilds the per-day totals and restores the triggers if they were set aside.
    func finish() throws {
        bulk.reset()
        insertBulk?.reset()
        batchBulk?.reset()
        upsertBatchBulk?.reset()
        guard let triggers = setAside else { return }
        defer { totals = nil }
        if var totals {
            try totals.write(db)
            for sql in triggers { try db.execute(sql: sql) }
            setAside = nil
            return
        }
        try db.execute(
            sql: """
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
