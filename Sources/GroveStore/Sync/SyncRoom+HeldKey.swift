import Foundation
import GRDB
import GroveCore

/// What the store keeps about the account's key — never the key itself, which lives in its own file
/// beside the store: whether this device waits for one, and which one it holds.
extension SyncRoom {
    /// Holds everything back until the account is encrypted (`awaiting`), or lets it go out.
    public func awaitKey(_ awaiting: Bool) throws {
        try write { db in
            guard try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM sync_state")) == true else { throw SyncStoreError.notLoggedIn }
            try db.cachedExecute("UPDATE sync_state SET awaiting_key = ?", [awaiting])
        }
    }

    /// The id of the key this device holds, as the store last heard it (`noteHeldKey`).
    public func heldKeyId() throws -> String? {
        try writer.snapshotRead { db in try String.fetchOne(db.cachedStatement(sql: "SELECT key_id FROM sync_state")) }
    }

    /// Records which key this device holds (nil: none).
    public func noteHeldKey(_ keyId: String?) throws {
        try write { db in try db.cachedExecute("UPDATE sync_state SET key_id = ?", [keyId]) }
    }

    /// Records the account's key id as the server (or a box it sent) named it, when it changed.
    public func noteServerKeyId(_ keyId: String) throws {
        try write { db in
            try db.cachedExecute("UPDATE sync_state SET server_key_id = ? WHERE server_key_id IS NOT ?", [keyId, keyId])
        }
    }

    /// Compares the server's key envelope (`keptAt`, nil for one from before servers stamped them)
    /// with the latest this device saw, and remembers the later. Returns when the server's is older:
    /// then the server was restored from a backup, and `keysBehind` stays set until the server holds
    /// one at least as late (the passphrase set again) — a warning every face shows.
    ///
    /// `keyId` is the account's key as the server names it, remembered too (`SyncDevice.serverKeyId`).
    @discardableResult
    public func noteServerKeys(keyId: String?, keptAt: Date?) throws -> Date? {
        try write { db in
            guard let row = try db.cachedRow("SELECT keys_kept_at, keys_behind, server_key_id FROM sync_state") else {
                throw SyncStoreError.notLoggedIn
            }
            let kept = row["keys_kept_at"] as Int64?, seen = kept.map { Date(groveMillis: $0) }
            let behind: Date? = if keyId != nil, let seen, keptAt.map({ $0 < seen }) ?? true { seen } else { nil }
            // A plain account (no key id) keeps what was seen: its times say nothing about keys.
            let latest = keyId == nil ? kept : (behind ?? keptAt)?.groveMillis
            // Written only when it changes: every write is a change the open pages are refreshed for.
            if latest != kept || (behind != nil) != (row["keys_behind"] as Bool? ?? false) || keyId != row["server_key_id"] as String? {
                try db.cachedExecute(
                    "UPDATE sync_state SET keys_kept_at = ?, keys_behind = ?, server_key_id = ?", [latest, behind != nil, keyId])
            }
            return behind
        }
    }
}
