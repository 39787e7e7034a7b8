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
}
