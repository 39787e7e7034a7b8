import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An advisory cross-process lock on a file (`flock`), held while `body` runs.
enum FileLock {
    static func withExclusiveLock<T>(path: String?, _ body: () throws -> T) throws -> T {
        guard let path else { return try body() }
        let fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return try body() }  // no lock file (read-only dir): migrate unguarded
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 && errno == EINTR {}
        defer { flock(fd, LOCK_UN) }
        return try body()
    }
}
