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

    /// Creates the store's directory (0700) and file (0600) if missing. An existing file's
    /// permissions are narrowed by `narrow`, once the store has opened it: a file that is refused
    /// is left exactly as it was.
    ///
    /// Only Grove's own files are touched: a path that names something else keeps its permissions
    /// and is refused for what it is (`StoreError.notAStore`: a directory, a device or pipe, a file
    /// that is not SQLite), before SQLite fails on it with an engine error or hangs on a pipe.
    ///
    /// Returns whether the existing file is an SQLite database in a rollback-journal mode: every
    /// Grove store is in WAL mode, so such a file may be another program's (`AppDatabase.open`
    /// looks, read-only). The file's header is read once, here.
    ///
    /// `createDirectory`: make a missing directory (the default place, `~/.local/share/grove`); a
    /// path someone gave (`--database`) must name a directory that exists — a typo makes no tree.
    @discardableResult
    static func prepare(path: String, createDirectory: Bool = true) throws -> Bool {
        // Plain system calls: this runs before every command (`grove now` on each prompt), and
        // Foundation's URL and file handles cost it more than the checks themselves.
        let directory = directoryOf(path)
        var info = stat()
        if stat(directory, &info) != 0 {
            guard createDirectory else { throw StoreError.missingDirectory(path: path, directory: directory) }
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        }
        var rollbackJournal = false
        let fd = open(path, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0o600)
        if fd >= 0 {
            close(fd)
        } else if stat(path, &info) == 0 {  // links followed: a link to a store is a store
            switch info.st_mode & S_IFMT {
            case S_IFDIR: throw StoreError.notAStore(path: path, what: "a directory")
            case S_IFREG:
                // Unreadable: SQLite's open says why.
                if let bytes = leadingBytes(path) {
                    guard bytes.isEmpty || bytes.starts(with: header) else {
                        throw StoreError.notAStore(path: path, what: "a file that is not an SQLite database")
                    }
                    rollbackJournal = bytes.count >= 20 && bytes[18] == 1
                }
            default: throw StoreError.notAStore(path: path, what: "a device, a pipe or a socket, not a file")
            }
        }
        return rollbackJournal
    }

    /// The files SQLite keeps beside a database.
    static func companions(of path: String) -> [String] { [path + "-wal", path + "-shm", path + ".lock"] }

    /// Narrows an opened store's permissions: a person's history is readable by that person alone.
    /// The WAL and shared-memory files beside it go the same way. Only when the path itself is the
    /// file, never through a link.
    static func narrow(path: String) {
        for file in [path] + companions(of: path) where isRegularFile(file) { _ = chmod(file, 0o600) }
    }

    /// Runs `look` (a read-only look at a file that may be refused) and, when it throws, removes the
    /// companion files it made (a read-only connection to a WAL database creates `-wal` and `-shm`):
    /// a refused file's folder is left as it was found.
    static func lookingWithoutTrace<T>(at path: String, _ look: () throws -> T) throws -> T {
        let existing = Set(companions(of: path).filter { access($0, F_OK) == 0 })
        do {
            return try look()
        } catch {
            for file in companions(of: path) where !existing.contains(file) && isRegularFile(file) { _ = unlink(file) }
            throw error
        }
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

    /// SQLite's file header: the first 16 bytes of every database file.
    private static let header: [UInt8] = Array("SQLite format 3\u{0}".utf8)

    /// The first 20 bytes of the file at `path` (fewer if it is shorter: none when empty), read
    /// without blocking; nil when it cannot be opened. Byte 18 is the file format's write version:
    /// 1 for a rollback journal, 2 for WAL.
    private static func leadingBytes(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 20)
        let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count >= 0 else { return nil }
        return Array(bytes.prefix(count))
    }
}
