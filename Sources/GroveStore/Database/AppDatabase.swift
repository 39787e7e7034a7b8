import Foundation
import GRDB
import GroveCore
import Logging

/// Grove's one store: a SQLite file shared safely by every process (CLI, server, scripts).
///
/// Like GRDB's demo app, it wraps the database writer, migrates in `init`, and offers reads and writes
/// named after what they do. Every write validates first and changes nothing when input is bad.
public struct AppDatabase: Sendable {
    /// The GRDB writer: a `DatabasePool` (WAL) for files, a `DatabaseQueue` in memory. GRDB stays
    /// inside the store: faces call the named reads and writes below.
    let writer: any DatabaseWriter
    /// Time, ids and zone come from here, never from the system directly.
    public let environment: GroveEnvironment
    /// The file as opened, checked before every write (nil in memory).
    private let file: StoreFile?
    /// Writes that arrive together commit together (one fsync).
    let groupCommit = GroupCommit()

    /// Opens `writer`, refuses a store a newer Grove wrote, applies pending migrations and installs
    /// the bundled data.
    init(_ writer: any DatabaseWriter, environment: GroveEnvironment = .live) throws {
        self.writer = writer
        self.environment = environment
        let isFile = writer.path != ":memory:" && !writer.path.isEmpty
        self.file = isFile ? StoreFile(path: writer.path) : nil
        let migrator = Self.migrator
        // One read of the applied list answers both questions (GRDB's `hasBeenSuperseded` and
        // `hasCompletedMigrations` would each read it again): every command opens the store.
        let applied = try writer.snapshotRead { db in try Self.appliedMigrations(db) }
        let known = migrator.migrations
        let superseded = applied.contains { !known.contains($0) }
        let complete = known.allSatisfy(applied.contains)
        // Tables but no migration of Grove's: another program's database (a browser's history, say).
        // Migrating would add Grove's tables to it; refused, and left exactly as it was.
        if applied.isEmpty, try writer.snapshotRead({ try Self.isForeign($0) }) {
            throw StoreError.notAStore(path: writer.path, what: "an SQLite database of another program")
        }
        // The sync server's file (its migrations are all `sync-…`): not a newer store, another kind.
        if !applied.isEmpty, !applied.contains(where: known.contains), applied.allSatisfy({ $0.hasPrefix("sync-") }) {
            throw StoreError.notAStore(
                path: writer.path,
                what: "a Grove sync server's database (`grove sync-server --database` opens it; grove needs a store of its own)")
        }
        if superseded {
            let known = Set(migrator.migrations)
            throw StoreError.newerStore(path: writer.path, unknownMigrations: applied.subtracting(known).sorted())
        }
        if !complete {
            try migrator.migrate(writer)
            Self.logger.debug("Database migrated", metadata: ["path": "\(writer.path)"])
        }
        try installBundledData()
        try ensureSyncCapture()
    }

    /// The database file's path, or nil for an in-memory store.
    public var path: String? { file?.path }

    /// Closes the store's connections now (the last one to close folds the WAL into the file and
    /// removes it), rather than when the last copy of this value goes. Any later use throws.
    public func close() throws { try writer.close() }

    /// Every write goes through here: it refuses to write when the file was deleted or replaced (the
    /// write would be acknowledged and lost), and turns a broken schema rule into a validation error
    /// naming the field instead of SQL text.
    ///
    /// Changes to synced rows were captured in the outbox by triggers; before the write is done, they
    /// get their clock here, so the data and its clock commit together.
    ///
    /// Writes made at the same moment by other threads may share the transaction (`GroupCommit`):
    /// each still succeeds or fails alone, and returns only once it is durable.
    func write<T>(_ updates: (Database) throws -> T) throws -> T {
        try file?.verify()
        let reading = environment.clockReading
        // A request that must apply once keeps its key with its first write (`AppliedRequest`).
        let once = AppliedRequest.current.flatMap { $0.claim() ? $0 : nil }
        var committed = false
        defer { once?.settle(committed: committed) }
        do {
            var result: T?
            try groupCommit.write(writer) { db in
                if let once { try Self.recordApplied(once, now: environment.now(), db) }
                result = try updates(db)
                try Self.stampCapturedChanges(db, reading: reading())
            }
            guard let result else { throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "The write did not run") }
            committed = true
            return result
        } catch let error as DatabaseError {
            if let violation = ConstraintViolation(error) { throw violation }
            throw error
        }
    }

    /// Opens (creating if needed) the database file at `path` in WAL mode.
    ///
    /// Opening holds an advisory lock on `path + ".lock"`: GRDB reads the list of applied migrations
    /// outside a transaction, and switching a new file to WAL needs it to itself, so two processes
    /// opening a new file at once could otherwise both run "v1" or see SQLITE_BUSY. The lock is held
    /// for microseconds once the file exists.
    ///
    /// `concurrentReads` opens a pool of connections (the server: reads run beside a write); without
    /// it, one connection (a command that runs and exits). The one connection costs a fraction of a
    /// pool's opening: no reader connections parsing the schema again, and no write to make sure a
    /// WAL file exists, which a pool does on every open after the last process closed the store.
    ///
    /// `createDirectory`: make the file's directory when it is missing (Grove's default place); a
    /// path a person gave must name a directory that exists (`StoreError.missingDirectory`).
    public static func open(
        path: String, environment: GroveEnvironment = .live, concurrentReads: Bool = true,
        createDirectory: Bool = true
    ) throws -> AppDatabase {
        let rollbackJournal = try StoreFile.prepare(path: path, createDirectory: createDirectory)
        return try FileLock.withExclusiveLock(path: path + ".lock") {
            // Every Grove store is in WAL mode; a database that is not may be another program's,
            // which opening for writing would switch to WAL: look first, read-only (rare: once, for
            // a Grove store restored from a copy in the old journal mode).
            if rollbackJournal { try StoreFile.lookingWithoutTrace(at: path) { try refuseForeignDatabase(at: path) } }
            if concurrentReads {
                let pool = try DatabasePool(path: path, configuration: configuration())
                // GRDB turns a pool's writer to `synchronous = NORMAL` after `prepareDatabase` runs (a
                // commit then survives a crash but not a power loss): back to FULL, as every other
                // connection, so that an acknowledged write survives both.
                try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
                let database = try AppDatabase(pool, environment: environment)
                StoreFile.narrow(path: path)
                return database
            }
            let queue = try DatabaseQueue(path: path, configuration: configuration())
            // WAL is a property of the file: set once, on a new store, so that other processes read
            // while this one writes.
            try queue.writeWithoutTransaction { db in
                if try String.fetchOne(db, sql: "PRAGMA journal_mode") != "wal" {
                    _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
                }
            }
            let database = try AppDatabase(queue, environment: environment)
            StoreFile.narrow(path: path)
            return database
        }
    }

    /// Throws `notAStore` when the database at `path` has tables but none of Grove's migrations.
    private static func refuseForeignDatabase(at path: String) throws {
        var configuration = Configuration()
        configuration.readonly = true
        let probe = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? probe.close() }
        if try probe.read({ try Self.isForeign($0) }) {
            throw StoreError.notAStore(path: path, what: "an SQLite database of another program")
        }
    }

    /// Checks and prepares a database file for another Grove store (the sync server's): what
    /// `open` does first — the directory 0700 (created only when `createDirectory`), a new file 0600,
    /// a path that is not an SQLite file refused for what it is (`StoreError.notAStore`).
    public static func prepareFile(path: String, createDirectory: Bool = true) throws {
        try StoreFile.prepare(path: path, createDirectory: createDirectory)
    }

    /// A read-only look at a file that may be refused; when `look` throws, the `-wal` and `-shm`
    /// files the look made are removed (`StoreFile.lookingWithoutTrace`).
    public static func lookingWithoutTrace<T>(at path: String, _ look: () throws -> T) throws -> T {
        try StoreFile.lookingWithoutTrace(at: path, look)
    }

    /// Narrows an opened store's file, and the files beside it, to 0600.
    public static func narrowFile(path: String) { StoreFile.narrow(path: path) }

    /// Tables, but no record of Grove's migrations.
    static func isForeign(_ db: Database) throws -> Bool {
        try !db.tableExists("grdb_migrations")
            && Bool.fetchOne(db, sql: "SELECT 1 FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' LIMIT 1") == true
    }

    /// A private in-memory database (tests, previews).
    ///
    /// Each starts as a copy of one migrated store with the bundled data (SQLite's backup API): a
    /// copy takes a fraction of a millisecond, migrating and installing anew tens of them.
    public static func inMemory(environment: GroveEnvironment = .live) throws -> AppDatabase {
        let queue = try DatabaseQueue(configuration: configuration())
        try pristine.get().backup(to: queue)
        return try AppDatabase(queue, environment: environment)
    }

    /// The migrated in-memory store every `inMemory()` copies, made once per process.
    static let pristine = Result { () throws -> DatabaseQueue in
        let queue = try DatabaseQueue(configuration: configuration())
        _ = try AppDatabase(queue)
        return queue
    }

    /// Settings that let the CLI and the server write one file at once: writes wait up to 10 s for the
    /// lock instead of failing with SQLITE_BUSY (GRDB 7 opens write transactions IMMEDIATE, so there is
    /// no deadlocking lock upgrade); foreign keys on; full sync so that an acknowledged commit survives
    /// power loss as well as a crash.
    public static func configuration() -> Configuration {
        SQLiteProcess.prepare()
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.busyMode = .timeout(10)
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            // The writer gets up to 16 MiB of page cache (allocated only as used): bulk imports insert
            // random UUID keys, which thrash SQLite's 2 MiB default (32 MiB was no faster and put a
            // million-session import over 64 MiB).
            // A server's readers (a pool of several) keep 1 MiB each: reads are index-sized, the file
            // system caches the rest, and the resident size returns near idle after heavy requests.
            try db.execute(sql: "PRAGMA cache_size = \(db.configuration.readonly ? readerCacheSize : writerCacheSize)")
        }
        return config
    }

    /// The writer's page cache, as `PRAGMA cache_size` takes it (negative: KiB).
    static let writerCacheSize = -16384
    /// A reader's page cache (KiB, negative as above).
    static let readerCacheSize = -1024

    /// Where Grove keeps its data: `$GROVE_HOME/grove.sqlite`, else `$XDG_DATA_HOME/grove/grove.sqlite`,
    /// else `~/.local/share/grove/grove.sqlite`.
    public static func defaultPath(environment variables: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let home = variables["GROVE_HOME"], !home.isEmpty { return home + "/grove.sqlite" }
        if let xdg = variables["XDG_DATA_HOME"], !xdg.isEmpty { return xdg + "/grove/grove.sqlite" }
        let home = variables["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.local/share/grove/grove.sqlite"
    }

    static let logger = Logger(label: "grove.store")

    // MARK: Bundled data

    /// Preset themes, bundled content, the known apps and default preferences, inserted once per
    /// content-pack version. Idempotent; the common case is one cheap read.
    func installBundledData() throws {
        let key = "bundled_data_version"
        let installed = try writer.snapshotRead { db in
            try String.fetchOne(db.cachedStatement(sql: "SELECT value FROM grove_meta WHERE key = ?"), arguments: [key])
        }
        guard installed != String(BundledContent.version) else { return }
        try write { db in
            for theme in PresetThemes.getAll() { try ThemeRecord(theme).upsert(db) }
            for content in BundledContent.all {
                // Keep rotation counters of items already shown; refresh their text.
                try db.cachedExecute(
                    """
                    INSERT INTO mindfulness_content (id, type, text, category, author, length, priority, is_bundled, last_used, times_shown)
                    VALUES (?, ?, ?, ?, ?, ?, ?, 1, NULL, 0)
                    ON CONFLICT (id) DO UPDATE SET type = excluded.type, text = excluded.text, category = excluded.category,
                        author = excluded.author, length = excluded.length, is_bundled = 1
                    """,
                    [
                        content.id, content.type.rawValue, content.text, content.category.rawValue, content.author,
                        content.length, content.priority,
                    ])
            }
            for app in SocialApp.known { try SocialAppRecord(app).insert(db, onConflict: .ignore) }
            try PausePreferencesRecord(.default).insert(db, onConflict: .ignore)
            try FocusPreferencesRecord(.default).insert(db, onConflict: .ignore)
            if try UserPreferencesRecord.fetchCount(db) == 0 { try UserPreferencesRecord(UserPreferences()).insert(db) }
            try db.cachedExecute("INSERT OR REPLACE INTO grove_meta (key, value) VALUES (?, ?)", [key, String(BundledContent.version)])
        }
    }

    // MARK: Calendar

    /// The calendar of "today", streaks and reminders: the configured zone, else the system's.
    public func calendar() throws -> ZonedCalendar {
        try writer.snapshotRead { db in try calendar(db) }
    }

    func calendar(_ db: Database) throws -> ZonedCalendar {
        let row = try db.cachedRow("SELECT time_zone, first_weekday FROM user_preferences LIMIT 1")
        let zoneID: String? = row?["time_zone"]
        let zone = zoneID.flatMap(ZonedCalendar.zone) ?? environment.systemTimeZone()
        return ZonedCalendar(timeZone: zone, firstWeekday: row?["first_weekday"] ?? 1)
    }

    /// Copies the whole store, consistently, to a new file at `path` (SQLite's backup API).
    public func backup(to path: String) throws {
        let copy = try DatabaseQueue(path: path, configuration: Self.configuration())
        try writer.backup(to: copy)
    }

    /// Checks the file: SQLite's integrity check, "ok" when sound.
    public func integrityCheck() throws -> String {
        try writer.snapshotRead { db in try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: "\n") }
    }
}
