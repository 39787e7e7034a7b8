import Foundation
import GRDB
import GRDBSQLite
import GroveCore

/// The rows of an import that came out of time order, kept in a private temporary database and read
/// back sorted by start once the file is read.
///
/// Another tool's file sorted by start goes into the store's indexes in order, its rows checked
/// against nothing but each other (`ImportSpan`). One that is not (a CSV sorted by tag, a shuffled
/// export) would send every row to the store for its own lookups and scatter its inserts over five
/// indexes: four times the CPU for the same rows. Spooled here (appended, no index), the rows are
/// then sorted by SQLite's external sort, within a small cache and temporary files, so memory stays
/// bounded however long the file, and go in as a sorted file does.
///
/// The spool is a connection of its own (SQLite's private temporary database, the empty file name),
/// not a temporary table of the store's: the sort and the decoding of the sorted rows then run on a
/// reading thread (`sorted()`) while the store's thread writes the rows before them.
///
/// `@unchecked Sendable`: one thread uses it at a time — the import's writer while it spools, then the
/// reading thread of `sorted()` until that prefetcher is finished.
final class ImportSpool: @unchecked Sendable {
    fileprivate let connection: OpaquePointer
    private let insert: OpaquePointer
    /// Rows spooled so far.
    private(set) var count = 0

    init() throws {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_PRIVATECACHE
        guard sqlite3_open_v2("", &handle, flags, nil) == SQLITE_OK, let handle else {
            sqlite3_close_v2(handle)
            throw DatabaseError(resultCode: .SQLITE_CANTOPEN, message: "could not open the import's temporary spool")
        }
        connection = handle
        do {
            // Nothing here outlives the import: no journal, no fsync, one transaction that is never committed
            // (a commit per row would walk the whole cache each time); a 2 MiB cache, the rest in temporary files
            // (4 MiB took a shuffled million-row import to 63.7 MiB of its 64 MiB bound; 2 MiB, 58.3 MiB in 16-19 s either way).
            try Self.execute(
                handle,
                """
                PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -2048; PRAGMA locking_mode = EXCLUSIVE;
                CREATE TABLE spool (
                    id TEXT NOT NULL, start_time INTEGER, end_time INTEGER, state TEXT, duration_ms INTEGER, paused_ms INTEGER,
                    planned_ms INTEGER, paused_at INTEGER, created_at INTEGER, time_zone TEXT, end_day TEXT,
                    clock_uncertain INTEGER, tags TEXT, open_ended INTEGER,
                    start_ms INTEGER NOT NULL, finish_ms INTEGER NOT NULL, row INTEGER NOT NULL, name TEXT NOT NULL,
                    is_stored INTEGER NOT NULL, failure_field TEXT, failure TEXT, seq INTEGER NOT NULL);
                BEGIN;
                """)
            insert = try Self.prepare(
                handle,
                """
                INSERT INTO spool (id, start_time, end_time, state, duration_ms, paused_ms, planned_ms, paused_at, created_at, time_zone,
                    end_day, clock_uncertain, tags, open_ended, start_ms, finish_ms, row, name, is_stored, failure_field, failure, seq)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
        } catch {
            sqlite3_close_v2(handle)
            throw error
        }
    }

    deinit {
        sqlite3_finalize(insert)
        sqlite3_close_v2(connection)
    }

    /// Keeps a row for later: its session as it would be stored, or the rule it breaks.
    func add(_ item: PreparedInterval) throws {
        let bulk = BulkStatement(insert, connection: connection)
        bulk.reset()
        switch item.session {
        case .success(let session):
            SessionWriter.bindValues(session, idText: nil, to: bulk, row: 0)
            bulk.bind(20, nil as String?)
            bulk.bind(21, nil as String?)
        case .failure(let error):
            // Only rule errors reach here: any other error ends the import where it is met.
            let invalid = error as? any GroveValidationError
            for index in Int32(2)...14 { bulk.bind(index, nil as Int64?) }
            bulk.bind(1, SessionWriter.text(of: item.id))
            bulk.bind(20, invalid?.field ?? "row")
            bulk.bind(21, invalid?.message ?? "\(error)")
        }
        bulk.bind(15, item.from)
        bulk.bind(16, item.to)
        bulk.bind(17, Int64(item.row))
        bulk.bind(18, item.name)
        bulk.bind(19, item.isStored ? 1 : 0)
        bulk.bind(22, Int64(count))
        try bulk.step()
        count += 1
    }

    /// The first id in file order that the spool holds a second time, if any — by one sort of the
    /// spooled ids (sequential work in a small cache and temporary files), where checking each id as it
    /// came would insert it at a random place of an index: most of a shuffled import's time.
    func repeatedId() throws -> String? {
        sqlite3_reset(insert)
        // Whether any id repeats: one sort by id (half the window function's cost, measured on a
        // million rows). Only a file that repeats one pays for finding the first in file order.
        guard try firstText(of: "SELECT id FROM spool GROUP BY id HAVING count(*) > 1 LIMIT 1") != nil else { return nil }
        return try firstText(
            of: """
                SELECT id FROM (SELECT id, seq, row_number() OVER (PARTITION BY id ORDER BY seq) AS nth FROM spool)
                WHERE nth = 2 ORDER BY seq LIMIT 1
                """)
    }

    /// The first column of the first row `sql` returns, as text.
    private func firstText(of sql: String) throws -> String? {
        let select = try Self.prepare(connection, sql)
        defer { sqlite3_finalize(select) }
        switch sqlite3_step(select) {
        case SQLITE_ROW: return sqlite3_column_text(select, 0).map { String(cString: $0) }
        case SQLITE_DONE: return nil
        default: throw DatabaseError.last(on: connection)
        }
    }

    /// Every spooled row in start order (then file order), sorted and decoded on a thread of its own
    /// a few batches ahead of the caller, who must `finish()` it before the spool goes.
    func sorted() throws -> Prefetcher<PreparedInterval> {
        sqlite3_reset(insert)
        let select = try Self.prepare(
            connection,
            """
            SELECT id, start_time, end_time, state, duration_ms, paused_ms, planned_ms, paused_at, created_at, time_zone, end_day,
                clock_uncertain, tags, start_ms, finish_ms, row, name, is_stored, failure_field, failure, open_ended
            FROM spool ORDER BY start_ms, seq
            """)
        let rows = SpoolCursor(select, spool: self)
        return Prefetcher { try rows.next() }
    }

    private static func prepare(_ connection: OpaquePointer, _ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(connection, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw DatabaseError.last(on: connection)
        }
        return statement
    }

    private static func execute(_ connection: OpaquePointer, _ sql: String) throws {
        guard sqlite3_exec(connection, sql, nil, nil, nil) == SQLITE_OK else { throw DatabaseError.last(on: connection) }
    }

}

/// The sorted read of a spool, one row at a time into the interval it was made from; the statement
/// is finalized at its end (or when the cursor goes), and the spool lives as long as it does.
private final class SpoolCursor: @unchecked Sendable {
    private var statement: OpaquePointer?
    private let spool: ImportSpool
    private var connection: OpaquePointer { spool.connection }

    init(_ statement: OpaquePointer, spool: ImportSpool) {
        self.statement = statement
        self.spool = spool
    }

    deinit { sqlite3_finalize(statement) }

    func next() throws -> PreparedInterval? {
        guard let statement else { return nil }
        switch sqlite3_step(statement) {
        case SQLITE_ROW: break
        case SQLITE_DONE:
            sqlite3_finalize(statement)
            self.statement = nil
            return nil
        default: throw DatabaseError.last(on: connection)
        }
        func int(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }
        func optionalInt(_ column: Int32) -> Int64? { sqlite3_column_type(statement, column) == SQLITE_NULL ? nil : int(column) }
        func text(_ column: Int32) -> String? { sqlite3_column_text(statement, column).map { String(cString: $0) } }
        let idText = text(0) ?? ""
        guard let id = SessionWriter.uuid(fromText: idText) else {
            throw InvalidField("id", "An import row's id \(idText) is not a UUID")
        }
        let session: Result<FocusSession, any Error>
        if let failure = text(19) {
            session = .failure(InvalidField(text(18) ?? "row", failure))
        } else if let state = text(3).flatMap(SessionState.init(rawValue:)) {
            session = .success(
                FocusSession(
                    id: id, startTime: Date(groveMillis: int(1)), endTime: optionalInt(2).map(Date.init(groveMillis:)), state: state,
                    duration: TimeInterval(groveMillis: int(4)), pausedDuration: TimeInterval(groveMillis: int(5)),
                    createdAt: Date(groveMillis: int(8)), plannedDuration: TimeInterval(groveMillis: int(6)),
                    pausedAt: optionalInt(7).map(Date.init(groveMillis:)), timeZoneIdentifier: text(9) ?? "",
                    endDay: text(10).flatMap { LocalDay($0) }, clockUncertain: int(11) != 0, tags: TagsColumn.decode(text(12)),
                    openEnded: int(20) != 0))
        } else {
            session = .failure(InvalidField("state", "Unknown state \(text(3) ?? "")"))
        }
        return PreparedInterval(
            row: Int(clamping: int(15)), start: Date(groveMillis: int(13)), finish: Date(groveMillis: int(14)), name: text(16) ?? "",
            id: id, isStored: int(17) != 0, session: session)
    }
}
