import GRDB
import GroveCore

extension AppDatabase {
    /// Removes a row that a deletion made elsewhere names (a pulled tombstone, or a row the server no
    /// longer has), as a removal here does (`removeKeepingHistory`). A row retired because pauses here
    /// name it goes out again whole, retired, with a clock newer than the deletion: a device that
    /// deleted it keeps the pauses that name it waiting (`apply`) and takes them in once it is back.
    /// Returns whether the row was retired rather than deleted.
    @discardableResult
    static func removeSynced(_ db: Database, _ entity: SyncEntity, id: String) throws -> Bool {
        guard try removeKeepingHistory(db, entity, id: id) else { return false }
        // Capture is off while a pull applies: the row is queued as an insert is, its clocks given at
        // the next push (`fresh`).
        let whole = entity.allGroupBits | 1 << SyncEntity.aliveBit
        try db.cachedExecute(
            """
            INSERT INTO sync_outbox (entity, entity_id, dirty, fresh) VALUES (?, ?, ?, ?)
            ON CONFLICT (entity, entity_id) WHERE mutation_id IS NULL DO UPDATE SET dirty = dirty | excluded.dirty, fresh = fresh | excluded.fresh
            """, [entity.name, id, whole, whole])
        return true
    }
}
