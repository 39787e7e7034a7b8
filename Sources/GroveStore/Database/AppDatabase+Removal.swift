import GRDB
import GroveCore

extension AppDatabase {
    /// The column of `gateway_session` that names a row of `entity`, for the rows pauses name.
    static func pauseColumn(naming entity: SyncEntity) -> String? {
        switch entity.name {
        case SyncEntity.app.name: "app_id"
        case SyncEntity.content.name: "content_id"
        default: nil
        }
    }

    /// Removes a row of `entity`, keeping history: an app or content item that pauses name is retired
    /// instead (never listed, gated or shown again; its pauses and their statistics stay), an app
    /// losing its gate and its adaptive friction too. Every removal uses it, here or through sync.
    /// Returns whether the row was retired rather than deleted.
    static func removeKeepingHistory(_ db: Database, _ entity: SyncEntity, id: String) throws -> Bool {
        guard let column = pauseColumn(naming: entity),
            try db.cachedExists("SELECT 1 FROM gateway_session WHERE \(column) = ? LIMIT 1", [id])
        else {
            try db.execute(sql: "DELETE FROM \(entity.table) WHERE \(entity.keyColumn) = ?", arguments: [id])
            return false
        }
        if entity.name == SyncEntity.app.name {
            try db.cachedExecute("UPDATE social_app SET retired = 1, is_enabled = 0 WHERE id = ?", [id])
            try db.cachedExecute("DELETE FROM pause_friction WHERE app_id = ?", [id])
        } else {
            try db.cachedExecute("UPDATE mindfulness_content SET retired = 1 WHERE id = ?", [id])
        }
        return true
    }
}

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
