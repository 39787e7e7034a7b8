import Crypto
import Foundation
import GRDB
import GroveCore

/// Ids that would tell an encrypted account's server something — an intention's id is a UUIDv5 of its
/// period, an imported session's starts with its start — made opaque (SYNC.md "Private sync"): an
/// HMAC of the id under a key every device of the account derives from the data key, so that they all
/// still reach the same id for the same period or the same imported row.
public enum KeyedID {
    /// The id `plain` keyed: HMAC-SHA256 under `key`, 122 bits of it, marked by its variant bits (110)
    /// so that a keyed id is never keyed again.
    public static func keyed(_ plain: UUID, key: SymmetricKey) -> UUID {
        var bytes = Array(HMAC<SHA256>.authenticationCode(for: Data(plain.uuidString.utf8), using: key)).prefix(16).map { $0 }
        bytes[6] = (bytes[6] & 0x0F) | 0x80
        bytes[8] = (bytes[8] & 0x1F) | 0xC0
        return UUID(sixteen: bytes)
    }

    /// Whether `id` is keyed already.
    static func isKeyed(_ id: UUID) -> Bool { id.uuid.8 & 0xE0 == 0xC0 }

    /// A period's intention id (UUIDv5: version 5, variant 10).
    static func isPeriodID(_ id: UUID) -> Bool { id.uuid.6 >> 4 == 5 && id.uuid.8 & 0xC0 == 0x80 }

    /// An imported session's id (`ImportID`: version 8, variant 10).
    static func isImportID(_ id: UUID) -> Bool { id.uuid.6 >> 4 == 8 && id.uuid.8 & 0xC0 == 0x80 }

    /// The account's id key on this store, when it is encrypted and unlocked here.
    static func key(_ db: Database) throws -> SymmetricKey? {
        guard let text = try String.fetchOne(db.cachedStatement(sql: "SELECT id_key FROM sync_state")),
            let data = Hex.data(text), data.count == 32
        else { return nil }
        return SymmetricKey(data: data)
    }

    /// `plain` keyed if the store holds the account's id key, else as it is.
    static func id(_ plain: UUID, _ db: Database) throws -> UUID {
        try key(db).map { keyed(plain, key: $0) } ?? plain
    }
}

extension SyncRoom {
    /// Keeps the account's id key (`grove sync encrypt` and `unlock`) and renames what it keys: every
    /// period's intention and every imported session gets its keyed id, in one transaction, sent as the
    /// old id deleted and the new one inserted with the clocks it had. Returns how many were renamed.
    @discardableResult
    public func adoptIDKey(_ raw: Data, keyId: String? = nil) throws -> Int {
        guard raw.count == 32 else { throw InvalidField("idKey", "An id key has 32 bytes") }
        return try write { db in
            guard try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM sync_state")) == true else { throw SyncStoreError.notLoggedIn }
            // The key's id too, for the faces that show it (the key itself stays in its file).
            try db.cachedExecute("UPDATE sync_state SET id_key = ?, key_id = ?", [Hex.string(raw), keyId])
            let key = SymmetricKey(data: raw)
            // Children follow their session when the transaction commits (checked then, not per rename).
            try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
            let children = try ["focus_notice", "focus_break"].filter { try db.tableExists($0) }
            var renamed = 0
            // Only the rows whose UUID version could be a meaningful id are read (5: a period; 8: an
            // import), not every session of the history.
            for (entity, version, meaningful) in [
                (SyncEntity.intention, "5", KeyedID.isPeriodID), (SyncEntity.focusSession, "8", KeyedID.isImportID),
            ] {
                let ids = try String.fetchAll(
                    db, sql: "SELECT \(entity.keyColumn) FROM \(entity.table) WHERE substr(\(entity.keyColumn), 15, 1) = ?",
                    arguments: [version])
                for text in ids {
                    guard let old = UUID(uuidString: text), meaningful(old), !KeyedID.isKeyed(old) else { continue }
                    try AppDatabase.rename(
                        db, entity, from: text, to: KeyedID.keyed(old, key: key).uuidString,
                        children: entity == .focusSession ? children : [])
                    renamed += 1
                }
            }
            return renamed
        }
    }
}

extension AppDatabase {
    /// Renames a synced row: its local `children` (tables with a `session_id`) follow, its clocks move
    /// with it, and sync sends the new id whole and the old one's deletion. Foreign keys must be deferred.
    static func rename(_ db: Database, _ entity: SyncEntity, from old: String, to new: String, children: [String] = []) throws {
        try db.cachedExecute("UPDATE \(entity.table) SET \(entity.keyColumn) = ? WHERE \(entity.keyColumn) = ?", [new, old])
        for child in children { try db.cachedExecute("UPDATE \(child) SET session_id = ? WHERE session_id = ?", [new, old]) }
        try db.cachedExecute("UPDATE sync_clock SET entity_id = ? WHERE entity = ? AND entity_id = ?", [new, entity.name, old])
        try db.cachedExecute("DELETE FROM sync_outbox WHERE entity = ? AND entity_id = ? AND mutation_id IS NULL", [entity.name, old])
        let whole = entity.allGroupBits | 1 << SyncEntity.aliveBit, tomb = 1 << SyncEntity.tombBit
        try db.cachedExecute(
            """
            INSERT INTO sync_outbox (entity, entity_id, dirty, fresh) VALUES (?, ?, ?, 0)
            ON CONFLICT (entity, entity_id) WHERE mutation_id IS NULL DO UPDATE SET dirty = excluded.dirty
            """, [entity.name, new, whole])
        // The old id's deletion is stamped now (it must beat the clocks the old row had).
        try db.cachedExecute(
            """
            INSERT INTO sync_outbox (entity, entity_id, dirty, fresh) VALUES (?, ?, ?, ?)
            ON CONFLICT (entity, entity_id) WHERE mutation_id IS NULL DO UPDATE SET dirty = excluded.dirty, fresh = excluded.fresh
            """, [entity.name, old, tomb, tomb])
    }
}
