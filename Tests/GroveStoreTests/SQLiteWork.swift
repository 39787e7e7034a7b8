import Foundation
import GRDB
import GRDBSQLite

@testable import GroveStore

/// The work SQLite does for what one in-memory store runs: virtual-machine steps summed over every
/// statement (`SQLITE_STMTSTATUS_VM_STEP`), read as each statement finishes. A query that visits
/// every session costs steps in proportion to the history; one that reads per-day totals or an
/// index range does not. Counting, not timing: the same on any machine.
final class SQLiteWork: @unchecked Sendable {
    private let lock = NSLock()
    private var steps: Int64 = 0
    private var statements: Int64 = 0

    fileprivate func add(_ n: Int64) {
        lock.withLock {
            steps += n
            statements += 1
        }
    }

    /// The steps `body` makes `store` run.
    static func of(_ store: AppDatabase, _ body: () throws -> Void) throws -> Int64 {
        try measure(store, body).steps
    }

    /// The statements `body` makes `store` run (each run of a cached statement counts).
    static func statements(_ store: AppDatabase, _ body: () throws -> Void) throws -> Int64 {
        try measure(store, body).statements
    }

    private static func measure(_ store: AppDatabase, _ body: () throws -> Void) throws -> (steps: Int64, statements: Int64) {
        let work = SQLiteWork()
        let context = Unmanaged.passRetained(work)
        defer { context.release() }
        try store.writer.writeWithoutTransaction { db in
            _ = sqlite3_trace_v2(
                db.sqliteConnection, UInt32(SQLITE_TRACE_STMT | SQLITE_TRACE_PROFILE),
                { event, context, statement, _ in
                    guard let context, let statement else { return 0 }
                    // As a statement starts, its counter is reset: a cached statement also ran while no one
                    // counted, and those steps are not this run's. As it finishes, its steps are read.
                    let steps = sqlite3_stmt_status(OpaquePointer(statement), SQLITE_STMTSTATUS_VM_STEP, 1)
                    if event == UInt32(SQLITE_TRACE_PROFILE) {
                        Unmanaged<SQLiteWork>.fromOpaque(context).takeUnretainedValue().add(Int64(steps))
                    }
                    return 0
                }, context.toOpaque())
        }
        defer { try? store.writer.writeWithoutTransaction { db in _ = sqlite3_trace_v2(db.sqliteConnection, 0, nil, nil) } }
        try body()
        return work.lock.withLock { (work.steps, work.statements) }
    }
}
