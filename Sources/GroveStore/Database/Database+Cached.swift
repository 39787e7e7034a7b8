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
    ///
    /// Collected from the cursor here: `Row.fetchAll` builds its array through a generic initializer
    /// whose conformance the runtime finds by scanning every conformance in the binary (~0.7 M
    /// instructions, once per process, on the start of nearly every command). A cursor's row is
    /// reused by its next step, hence the copy, as `fetchAll` makes.
    public func cachedRows(_ sql: String, _ arguments: StatementArguments = []) throws -> [Row] {
        let cursor = try Row.fetchCursor(cachedStatement(sql: sql), arguments: arguments)
        var rows: [Row] = []
        while let row = try cursor.next() { rows.append(row.copy()) }
        return rows
    }

    /// The first row of a cached statement as a record.
    ///
    /// Built from the row rather than fetched typed: GRDB's typed fetch of a record type new to the
    /// process instantiates its generic cursor, whose `FetchableRecord` conformance the Swift runtime
    /// finds by scanning every conformance in the binary (~0.6 M instructions, paid again at each
    /// command's start). The same holds for values: read a column of a row (`decode(_:atIndex:)`)
    /// on the everyday commands' paths rather than `Int.fetchOne` and its kin.
    public func cachedRecord<Record: FetchableRecord>(
        _ type: Record.Type, _ sql: String, _ arguments: StatementArguments = []
    ) throws -> Record? {
        try cachedRow(sql, arguments).map(Record.init(row:))
    }

    /// Every row of a cached statement as records (built from the rows, as `cachedRecord`).
    public func cachedRecords<Record: FetchableRecord>(
        _ type: Record.Type, _ sql: String, _ arguments: StatementArguments = []
    ) throws -> [Record] {
        try cachedRows(sql, arguments).map(Record.init(row:))
    }

    /// Whether a cached statement's first value is true.
    public func cachedExists(_ sql: String, _ arguments: StatementArguments = []) throws -> Bool {
        try Bool.fetchOne(cachedStatement(sql: sql), arguments: arguments) == true
    }
}
