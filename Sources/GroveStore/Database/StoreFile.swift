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
    /// existing ones: a person's history is readable by that person alone. The WAL and shared-memory
    /// files that SQLite creates next to it take the database file's permissions.
    static func prepare(path: String) throws {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
        let fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        if fd >= 0 {
            _ = fchmod(fd, 0o600)
            close(fd)
        }
        for suffix in ["-wal", "-shm", ".lock"] { _ = chmod(path + suffix, 0o600) }
    }
}
