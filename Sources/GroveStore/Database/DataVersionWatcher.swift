import Foundation
import GRDB
import GRDBSQLite

/// Tells when any connection — in this process or another (the CLI, a script) — committed to the file.
///
/// `PRAGMA data_version` on a connection of its own changes whenever another connection commits. But
/// asking it begins a read transaction, which takes and drops locks on the `-shm` file (`fcntl`
/// calls): ~12% of the CPU of a cached GET, which asks before every answer. So it is asked only when
/// the WAL-index header changed. Every commit in WAL mode rewrites that header in the `-shm` file
/// (its last frame, checksums and change counter; `WalIndexHdr` in SQLite's `wal.c`, stored twice),
/// which SQLite's readers themselves compare to tell whether anything changed. While both copies hold
/// the bytes they held when `data_version` was last asked, nothing committed since, and that answer
/// stands. Anything else (a torn read, a checkpoint's restart of the WAL, no WAL-index) asks SQLite.
///
/// `@unchecked Sendable`: its state changes only under `lock`.
public final class DataVersionWatcher: @unchecked Sendable {
    private let connection: DatabaseQueue
    /// The connection's WAL-index (nil without one: then every question asks SQLite).
    private let walIndex: WALIndexMapping?
    private let lock = NSLock()
    /// Both header copies as read just before `data_version` was last asked, and its answer.
    private var lastHeaders: WALIndexMapping.Headers?
    private var lastVersion: Int
    private var asked = 1

    /// A read-only connection to the file at `path`, asked once: a connection maps its WAL-index on
    /// its first read.
    public init(path: String) throws {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(5)
        connection = try DatabaseQueue(path: path, configuration: configuration)
        (lastVersion, walIndex) = try connection.inDatabase { db in (try Self.dataVersion(db), WALIndexMapping(db)) }
    }

    /// How many times SQLite itself was asked: tests count it to catch a return to asking every time.
    var sqliteAsks: Int { lock.withLock { asked } }

    /// A number that changes whenever anyone else commits.
    public func version() throws -> Int {
        try lock.withLock {
            // Read before asking: a commit after this read changes the headers, and is asked about.
            let headers = walIndex?.headers()
            if let headers, headers == lastHeaders { return lastVersion }
            asked += 1
            lastVersion = try connection.inDatabase(Self.dataVersion)
            lastHeaders = headers
            return lastVersion
        }
    }

    private static func dataVersion(_ db: Database) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: "PRAGMA data_version")) ?? 0
    }
}

/// The WAL-index (`-shm`) of one connection, as SQLite itself maps it.
///
/// Borrowed through the connection's own VFS (`xShmMap`), never opened here: closing any descriptor
/// of the file would drop every POSIX lock this process holds on it, SQLite's included, and the next
/// process to open the store would then start the file over under the mapping.
struct WALIndexMapping {
    /// The two 48-byte copies of the WAL-index header (bytes 0..<96), copy 1 first.
    struct Headers: Equatable {
        var first: SIMD8<UInt64>
        var rest: SIMD4<UInt64>
    }

    /// SQLite's mapping of the first region; valid while the connection that mapped it is open.
    private let base: UnsafeRawPointer

    /// The first region of `db`'s WAL-index; nil when it has none mapped (not WAL mode, the index in
    /// heap memory, an old VFS).
    init?(_ db: Database) {
        var file: UnsafeMutablePointer<sqlite3_file>?
        guard sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_FILE_POINTER, &file) == SQLITE_OK,
            let methods = file?.pointee.pMethods, methods.pointee.iVersion >= 2, let map = methods.pointee.xShmMap
        else { return nil }
        var region: UnsafeMutableRawPointer?
        // 32 KiB: the region size SQLite's WAL always maps with; 0: do not create it.
        guard map(file, 0, 32_768, 0, &region) == SQLITE_OK, let region else { return nil }
        base = UnsafeRawPointer(region)
    }

    /// Both header copies as they are now. SQLite's writer writes copy 2, then copy 1; a reader that
    /// meets a writer half-way sees copies that differ from the last ones, and asks SQLite.
    func headers() -> Headers {
        Headers(first: base.loadUnaligned(as: SIMD8<UInt64>.self), rest: base.loadUnaligned(fromByteOffset: 64, as: SIMD4<UInt64>.self))
    }
}
