import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The hold's record on disk: read and changed under an exclusive lock (`<record>.lock`), written
/// whole to a temporary file and renamed into place, readable by its owner only.
extension NotificationHold {
    /// Runs `change` on the record under the lock; the record it leaves is written (nil: removed).
    func withRecord(_ change: (inout Record?) -> Void) {
        let directory = (marker as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let lock = open(marker + ".lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        if lock >= 0 {
            while flock(lock, LOCK_EX) != 0, errno == EINTR {}
        }
        defer { if lock >= 0 { close(lock) } }
        let before = Self.read(marker)
        var record = before
        change(&record)
        guard record != before else { return }
        if let record {
            _ = Self.write(record, to: marker)
        } else {
            try? FileManager.default.removeItem(atPath: marker)
        }
    }

    static func read(_ path: String) -> Record? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        if let record = try? JSONDecoder().decode(Record.self, from: data) { return record }
        // A record from an older Grove (what was held, no holders): a release is owed.
        return (try? JSONDecoder().decode(Held.self, from: data)).map { Record(held: $0, holders: []) }
    }

    /// Writes `value` to `path` (0600) through a temporary file: a reader never sees half of it.
    static func write(_ value: some Encodable, to path: String) -> Bool {
        guard let data = try? JSONEncoder().encode(value) else { return false }
        let temporary = path + ".\(getpid()).tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: data, attributes: [.posixPermissions: 0o600]) else {
            return false
        }
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            return false
        }
        return true
    }
}
