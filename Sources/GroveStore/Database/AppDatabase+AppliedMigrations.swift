import GRDB
import GRDBSQLite

extension AppDatabase {
    /// The identifiers in `grdb_migrations` (none when the table is missing), as GRDB's
    /// `appliedIdentifiers` reads them — read here through SQLite's C API: GRDB's generic
    /// `String.fetchSet` makes the Swift runtime look up two conformances among the binary's 13,000
    /// (0.7 M instructions, on every command's start).
    static func appliedMigrations(_ db: Database) throws -> Set<String> {
        var statement: OpaquePointer?
        let connection = db.sqliteConnection
        guard sqlite3_prepare_v2(connection, "SELECT identifier FROM grdb_migrations", -1, &statement, nil) == SQLITE_OK else {
            sqlite3_finalize(statement)
            if try !db.tableExists("grdb_migrations") { return [] }
            throw DatabaseError.last(on: connection)
        }
        defer { sqlite3_finalize(statement) }
        var identifiers: Set<String> = []
        while true {
            switch sqlite3_step(statement) {
            case SQLITE_ROW: if let text = sqlite3_column_text(statement, 0) { identifiers.insert(String(cString: text)) }
            case SQLITE_DONE: return identifiers
            default:
                throw DatabaseError.last(on: connection)
            }
        }
    }
}
