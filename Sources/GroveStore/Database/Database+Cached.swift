import GRDB

/// The statements every path runs again and again: compiled once per connection and kept (GRDB's
/// statement cache), instead of parsed and authorized again each time. Public for the sync server's
/// SQLite store, which runs the same few statements for every push and pull.
extension Database {
    /// Runs one statement from the cache.
    public func cachedExecute(_ sql: String, _ arguments: StatementArguments = []) throws {
        try cachedStatement(sql: sql).execute(arguments: arguments)
    }

    /// The first row of a cached statement.
    public func cachedRow(_ sql: String, _ arguments: StatementArguments = []) throws -> Row? {
        try Row.fetchOne(cachedStatement(sql: sql), arguments: arguments)
    }

    /// Every row of a cached statement.
    public func cachedRows(_ sql: String, _ arguments: StatementArguments = []) throws -> [Row] {
        try Row.fetchAll(cachedStatement(sql: sql), arguments: arguments)
    }

    /// Whether a cached statement's first value is true.
    public func cachedExists(_ sql: String, _ arguments: StatementArguments = []) throws -> Bool {
        try Bool.fetchOne(cachedStatement(sql: sql), arguments: arguments) == true
    }
}
