import Foundation
import GroveStore

/// The account as it stood at an instant, from the sync server's restore points (SYNC.md "Restore
/// points"), as every face asks for it: `grove sync restore` and `POST /api/v1/sync/restore`.
extension SyncConnection {
    /// The restore point at `instant` rebuilt into a new store at `path`; nothing half-built is left
    /// behind under that name when it fails.
    public func rebuild(asOf instant: Date, into path: String) async throws -> RestoreSummary {
        let target = try AppDatabase.open(path: path, environment: database.environment, createDirectory: false)
        do {
            return try await RestorePoint.rebuild(from: try syncTransport(), asOf: instant, into: target)
        } catch {
            Self.removeStore(at: path)
            throw error
        }
    }

    /// Going back to `instant`: synced first (nothing of this device's is left unsent), rebuilt
    /// beside the store, compared, and — with `apply` — written as this device's edits, then synced,
    /// so that every device takes it at its next sync and the server's history stays whole. Without
    /// `apply` nothing is written: the answer says what going back would change.
    public func goBack(to instant: Date, apply: Bool) async throws -> RestoreApplied {
        var engine = try engine()
        _ = try await engine.sync()
        let scratch = storePath + ".restore-\(UUID().uuidString.prefix(8)).sqlite"
        defer { Self.removeStore(at: scratch) }
        _ = try await rebuild(asOf: instant, into: scratch)
        let summary = try database.sync.makeCurrent(restoredFrom: scratch, asOf: instant, deviceName: device.deviceName, apply: apply)
        if apply {
            var after = try self.engine()
            _ = try await after.sync()
        }
        return summary
    }

    /// A store's file and the files SQLite and Grove keep beside it.
    static func removeStore(at path: String) {
        for suffix in ["", "-wal", "-shm", ".lock"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}
