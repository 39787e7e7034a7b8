import GroveSQLiteConfig

/// SQLite's process-wide settings, made once before the first connection opens.
public enum SQLiteProcess {
    /// Turns SQLite's memory statistics off: with them on, every allocation of every connection takes
    /// one global mutex, and connections working on several threads at once (the server's readers,
    /// the sync server's users, parallel tests) spend their time queueing for it. Grove never reads
    /// those statistics. Called by every store's configuration; later calls do nothing.
    public static func prepare() { _ = once }

    private static let once: Int32 = {
        // A statement journal kept in memory up to 1 MiB: a bulk import's 32-row upserts each journal
        // the last pages of the table and its five indexes (more than SQLite's 64 KiB), and spilled to
        // a temporary file they cost 1.6 million small writes a million sessions (more than a second
        // of system time); no statement of Grove's journals more than a few hundred KiB.
        _ = grove_sqlite_statement_journal_spill(1 << 20)
        return grove_sqlite_disable_memory_statistics()
    }()

    /// Whether the statistics are off (SQLite then reports 0 bytes in use).
    public static var memoryStatisticsOff: Bool { grove_sqlite_memory_used() == 0 }
}
