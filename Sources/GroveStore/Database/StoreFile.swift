import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The database file as it was when the store opened it: its device and inode.
///
/// SQLite keeps writing to an open file after it has been deleted or replaced (the connections hold
/// the old inode), so without this check a write into a file nobody will ever read again would be
/// acknowledged as saved. Every write first checks that the path still names the same file.
struct StoreFile: Sendable {
    let path: String
    private let device: UInt64
    private let inode: UInt64

    /// The identity of the file at `path`, or nil when it cannot be read.
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.path = path
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }

    /// Throws unless `path` still names the file that was opened.
    func verify() throws {
        var info = stat()
        guard stat(path, &info) == 0 else { throw StoreError.databaseFileGone(path) }
        guard UInt64(info.st_dev) == device, UInt64(info.st_ino) == inode else { throw StoreError.databaseFileReplaced(path) }
    }

    /// Creates the store's directory (0700) and file (0600) if missing, and narrows the permissions of
    /// an existing store: a person's history is readable by that person alone. The WAL and
    /// shared-memory files that SQLite creates next to it take the database file's permissions.
    ///
    /// Only Grove's own files are touched: a path that names something else (`--database /etc/passwd`,
    /// a device, a link) keeps its permissions, and opening it then fails as "not a database".
    static func prepare(path: String) throws {
        // Plain system calls: this runs before every command (`grove now` on each prompt), and
        // Foundation's URL and file handles cost it more than the checks themselves.
        let directory = directoryOf(path)
        var info = stat()
        if stat(directory, &info) != 0 {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
        let fd = open(path, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0o600)
        if fd >= 0 {
            close(fd)
        } else if isSQLiteFile(path) {
            _ = chmod(path, 0o600)
        } else if let what = notAStore(path) {
            // Opening it would fail with an engine error at best (a device, a pipe: an I/O error;
            // a text file: "not a database"), or hang on a pipe: say what it is instead.
            throw StoreError.notAStore(path: path, what: what)
        }
        for companion in [path + "-wal", path + "-shm", path + ".lock"] where isRegularFile(companion) { _ = chmod(companion, 0o600) }
    }

    /// The directory `path` names a file in: what comes before its last "/" ("/" for a file at the
    /// root, "." for a bare name, which the system reads against the working directory).
    static func directoryOf(_ path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        return slash == path.utf8.startIndex ? "/" : String(path[..<slash])
    }

    /// A regular file (not a link, device or directory).
    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// What the existing `path` is when it cannot be a store (links followed: a link to a store is
    /// fine), or nil when it can or cannot be read at all (the open then says why).
    static func notAStore(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return "a directory"
        case S_IFREG: return sqliteHeader(path) == false ? "a file that is not an SQLite database" : nil
        default: return "a device, a pipe or a socket, not a file"
        }
    }

    /// SQLite's file header: the first 16 bytes of every database file.
    private static let header: [UInt8] = Array("SQLite format 3\u{0}".utf8)

    /// An SQLite database file whose header says it is in a rollback-journal mode, not WAL (byte 18,
    /// the file format's write version: 1 legacy, 2 WAL).
    static func isRollbackJournalDatabase(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 20)
        let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        return count == 20 && Array(bytes[0..<16]) == header && bytes[18] == 1
    }

    /// A regular file that is empty or starts with SQLite's header.
    static func isSQLiteFile(_ path: String) -> Bool {
        isRegularFile(path) && sqliteHeader(path, following: false) == true
    }

    /// Whether the file at `path` is empty or starts with SQLite's header; nil when it cannot be read.
    private static func sqliteHeader(_ path: String, following: Bool = true) -> Bool? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | (following ? 0 : O_NOFOLLOW))
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: header.count)
        let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        return count == 0 || (count == header.count && bytes == header)
    }
}
