import GRDB

extension DatabaseWriter {
    /// Runs `value` in one read transaction (a consistent snapshot).
    ///
    /// A pool reads on one of its reader connections, as `read` does. One connection (a store in
    /// memory, a CLI command's store) reads in a plain deferred transaction instead of GRDB's `read`,
    /// whose `PRAGMA query_only` guard expires every prepared statement of the connection each time
    /// it is switched: every read would cost the next statements their cache (each parsed and
    /// authorized again — half of the sync simulation's time). Read-only is still what callers do;
    /// only the guard goes.
    public func snapshotRead<T>(_ value: (Database) throws -> T) throws -> T {
        guard let queue = self as? DatabaseQueue else { return try read(value) }
        return try queue.unsafeRead { db in try Self.inReadTransaction(db, value) }
    }

    /// `snapshotRead` from async code.
    public func snapshotRead<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
        guard let queue = self as? DatabaseQueue else { return try await read(value) }
        return try await queue.unsafeRead { db in try Self.inReadTransaction(db, value) }
    }

    private static func inReadTransaction<T>(_ db: Database, _ value: (Database) throws -> T) throws -> T {
        // Already inside a transaction (a read nested in a write's closure): that one is the snapshot.
        guard !db.isInsideTransaction else { return try value(db) }
        var result: Result<T, any Error>?
        try db.inTransaction(.deferred) {
            result = Result { try value(db) }
            return .commit
        }
        guard let result else { throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "The read did not run") }
        return try result.get()
    }
}
