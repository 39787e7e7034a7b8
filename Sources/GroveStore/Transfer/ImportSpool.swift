import Foundation
import GRDB
import GroveCore

/// The rows of an import that came out of time order, kept in a temporary table and read back sorted
/// by start once the file is read.
///
/// Another tool's file sorted by start goes into the store's indexes in order, its rows checked
/// against nothing but each other (`ImportSpan`). One that is not (a CSV sorted by tag, a shuffled
/// export) would send every row to the store for its own lookups and scatter its inserts over five
/// indexes: four times the CPU for the same rows. Spooled here (appended, no index), the rows are
/// then sorted by SQLite's external sort, within its cache and temporary files, so memory stays
/// bounded however long the file, and go in as a sorted file does.
final class ImportSpool {
    private let db: Database
    private let insert: BulkStatement
    private let statement: Statement
    /// Rows spooled so far.
    private(set) var count = 0

    init(_ db: Database) throws {
        self.db = db
        try db.execute(
            sql: """
                DROP TABLE IF EXISTS temp.grove_import_spool;
                CREATE TEMP TABLE grove_import_spool (
                    id TEXT, start_time INTEGER, end_time INTEGER, state TEXT, duration_ms INTEGER, paused_ms INTEGER,
                    planned_ms INTEGER, paused_at INTEGER, created_at INTEGER, time_zone TEXT, end_day TEXT,
                    clock_uncertain INTEGER, tags TEXT,
                    start_ms INTEGER NOT NULL, finish_ms INTEGER NOT NULL, row INTEGER NOT NULL, name TEXT NOT NULL,
                    is_stored INTEGER NOT NULL, failure_field TEXT, failure TEXT, seq INTEGER NOT NULL)
                """)
        statement = try db.makeStatement(
            sql: """
                INSERT INTO temp.grove_import_spool (id, start_time, end_time, state, duration_ms, paused_ms, planned_ms, paused_at,
                    created_at, time_zone, end_day, clock_uncertain, tags, start_ms, finish_ms, row, name, is_stored, failure_field, failure,
                    seq)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
        insert = BulkStatement(statement.sqliteStatement, connection: db.sqliteConnection)
    }

    /// Keeps a row for later: its session as it would be stored, or the rule it breaks.
    func add(_ item: PreparedInterval) throws {
        insert.reset()
        switch item.session {
        case .success(let session):
            SessionWriter.bindValues(session, idText: nil, to: insert, row: 0)
            insert.bind(19, nil as String?)
            insert.bind(20, nil as String?)
        case .failure(let error):
            // Only rule errors reach here: any other error ends the import where it is met.
            let invalid = error as? any GroveValidationError
            for index in Int32(1)...13 { insert.bind(index, nil as Int64?) }
            insert.bind(1, item.id.uuidString)
            insert.bind(19, invalid?.field ?? "row")
            insert.bind(20, invalid?.message ?? "\(error)")
        }
        insert.bind(14, item.from)
        insert.bind(15, item.to)
        insert.bind(16, Int64(item.row))
        insert.bind(17, item.name)
        insert.bind(18, item.isStored ? 1 : 0)
        insert.bind(21, Int64(count))
        try insert.step()
        count += 1
    }

    /// Every spooled row in start order (then file order), one at a time; `body` may write to the store.
    func drain(_ body: (PreparedInterval) throws -> Void) throws {
        insert.reset()
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT id, start_time, end_time, state, duration_ms, paused_ms, planned_ms, paused_at, created_at, time_zone, end_day,
                    clock_uncertain, NULL, NULL, NULL, tags, start_ms, finish_ms, row, name, is_stored, failure_field, failure
                FROM temp.grove_import_spool ORDER BY start_ms, seq
                """)
        while let row = try rows.next() {
            let idText: String = row[0]
            guard let id = UUID(uuidString: idText) else { throw InvalidField("id", "An import row's id \(idText) is not a UUID") }
            let failure: String? = row[22]
            let session: Result<FocusSession, any Error> =
                if let failure {
                    .failure(InvalidField(row[21] ?? "row", failure))
                } else {
                    Result { try FocusSessionRecord(row: row).model() }
                }
            let from: Int64 = row[16], to: Int64 = row[17]
            try body(
                PreparedInterval(
                    row: row[18], start: Date(groveMillis: from), finish: Date(groveMillis: to), name: row[19], id: id,
                    isStored: row[20], session: session))
        }
    }

    /// Drops the table (the transaction's end would leave it for the connection's next import).
    func close() throws {
        insert.reset()
        try db.execute(sql: "DROP TABLE IF EXISTS temp.grove_import_spool")
    }
}
