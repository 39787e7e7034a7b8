import GRDB

/// Sync runs the same few statements for every row it moves: compiled once per connection and kept
/// (GRDB's statement cache), instead of parsed and authorized again each time.
extension Database {
    func cachedExecute(_ sql: String, _ arguments: StatementArguments = []) throws {
        try cachedStatement(sql: sql).execute(arguments: arguments)
    }

    func cachedRow(_ sql: String, _ arguments: StatementArguments = []) throws -> Row? {
        try Row.fetchOne(cachedStatement(sql: sql), arguments: arguments)
    }

    func cachedRows(_ sql: String, _ arguments: StatementArguments = []) throws -> [Row] {
        try Row.fetchAll(cachedStatement(sql: sql), arguments: arguments)
    }

    func cachedExists(_ sql: String, _ arguments: StatementArguments = []) throws -> Bool {
        try Bool.fetchOne(cachedStatement(sql: sql), arguments: arguments) == true
    }
}
