import GroveSQLiteConfig

/// SQLite's process-wide settings, made once before the first connection opens.
public enum SQLiteProcess {
    /// Turns SQLite's memory statistics off: with them on, every allocation of every connection takes
    /// one global mutex, and connections working on several threads at once (the server's readers,
    /// the sync server's users, parallel tests) spend their time queueing for it. Grove never reads
    /// those statistics. Called by every store's configuration; later calls do nothing.
    public static func prepare() { _ = once }

    private static let once: Int32 = grove_sqlite_disable_memory_statistics()

    /// Whether the statistics are off (SQLite then reports 0 bytes in use).
    public static var memoryStatisticsOff: Bool { grove_sqlite_memory_used() == 0 }
}
