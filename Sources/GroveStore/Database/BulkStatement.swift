import GRDB
import GRDBSQLite

/// A prepared statement driven through SQLite's C API, for loops that insert many rows.
struct BulkStatement {
    private let statement: OpaquePointer
    private let connection: OpaquePointer?
    /// SQLITE_TRANSIENT: SQLite copies the bytes before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(_ statement: OpaquePointer, connection: OpaquePointer?) {
        self.statement = statement
        self.connection = connection
    }

    func reset() {
        sqlite3_reset(statement)
    }

    func bind(_ index: Int32, _ value: Int64?) {
        if let value { sqlite3_bind_int64(statement, index, value) } else { sqlite3_bind_null(statement, index) }
    }

    func bind(_ index: Int32, _ value: String?) {
        guard var value else { sqlite3_bind_null(statement, index); return }
        value.withUTF8 { bytes in
            guard let base = bytes.baseAddress, !bytes.isEmpty else {
                _ = sqlite3_bind_text(statement, index, "", 0, Self.transient); return
            }
            _ = sqlite3_bind_text(
                statement, index, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self), Int32(bytes.count), Self.transient)
        }
    }

    /// Runs a query once: whether it gave a row; throws GRDB's error on failure.
    func exists() throws -> Bool {
        let code = sqlite3_step(statement)
        // Done with at once: a read left open would hold its table.
        defer { sqlite3_reset(statement) }
        guard code == SQLITE_ROW || code == SQLITE_DONE else {
            throw DatabaseError.last(on: connection)
        }
        return code == SQLITE_ROW
    }

    /// Runs the statement once; throws GRDB's error on failure.
    func step() throws {
        let code = sqlite3_step(statement)
        guard code == SQLITE_DONE else {
            throw DatabaseError.last(on: connection)
        }
    }
}

extension DatabaseError {
    /// GRDB's error for the last failure on `connection`, for code that calls SQLite's C API itself.
    static func last(on connection: OpaquePointer?) -> DatabaseError {
        DatabaseError(
            resultCode: ResultCode(rawValue: sqlite3_extended_errcode(connection)),
            message: connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) })
    }
}
