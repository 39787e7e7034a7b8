import Foundation
import GRDB
import GroveCore

extension AppDatabase {

    /// The mutation for a changed entity as it stands now, or nil when there is nothing to say
    /// (a row deleted by a pulled change, a local-only row).
    static func seal(_ db: Database, _ entity: SyncEntity, id: String, dirty: Int, number: Int64) throws -> SyncMutation? {
        let fields = try SyncRows.fields(db, entity, id: id)
        let state = try SyncRows.state(db, entity, id: id, fields: fields)
        guard let fields else {
            guard dirty & (1 << SyncEntity.tombBit) != 0, let tomb = state.tomb else { return nil }
            return SyncMutation(id: number, hlc: tomb, entity: entity.name, entityId: id, op: .delete)
        }
        let insert = dirty & (1 << SyncEntity.aliveBit) != 0
        var put = SyncFields()
        var clocks: [String: HLC] = [:]
        for (index, group) in entity.groups.enumerated() where insert || dirty & (1 << index) != 0 {
            guard let clock = state.clocks[group.name] else { continue }
            clocks[group.name] = clock
            for field in group.fields { put[field.wire] = fields[field.wire] ?? .null }
        }
        guard let top = (Array(clocks.values) + (insert ? [state.alive].compactMap { $0 } : [])).max() else { return nil }
        let complete = insert && clocks.count == entity.groups.count
        // The row's own insert clock travels with it, however much newer its edits are: re-sent after a
        // restore or a reset, it must not outlive a deletion made after it was created.
        let alive = complete ? state.alive.flatMap { $0 < top ? $0 : nil } : nil
        return SyncMutation(
            id: number, hlc: top, entity: entity.name, entityId: id, op: .put, fields: put,
            clocks: clocks, insert: complete ? true : nil, alive: alive)
    }

}

extension SyncRoom {
    /// The next mutations to push, oldest first, at most `limit`: those already sealed (a retry sends
    /// exactly what the last attempt sent, under the same ids), then pending changes sealed now with
    /// the next ids. Fewer than `limit` means nothing else waits; empty when everything is acknowledged.
    public func mutationsToPush(limit: Int = SyncWire.maxMutationsPerPush) throws -> [SyncMutation] {
        let reading = environment.clockReading()
        return try write { db in
            guard let device = try AppDatabase.syncDevice(db) else { throw SyncStoreError.notLoggedIn }
            // Changes another program captured (the `sqlite3` shell: triggers, but no Grove to stamp
            // them) get their clock now.
            try AppDatabase.stampCapturedChanges(db, reading: reading)
            let decoder = JSONDecoder()
            var mutations = try String.fetchAll(
                db.cachedStatement(sql: "SELECT payload FROM sync_outbox WHERE mutation_id IS NOT NULL ORDER BY mutation_id LIMIT ?"),
                arguments: [limit]
            ).compactMap { try? decoder.decode(SyncMutation.self, from: Data($0.utf8)) }
            guard mutations.count < limit else { return mutations }
            var next = device.lastMutationId
            let pending = try Row.fetchAll(
                db.cachedStatement(
                    sql: "SELECT id, entity, entity_id, dirty FROM sync_outbox WHERE mutation_id IS NULL ORDER BY id LIMIT ?"),
                arguments: [limit - mutations.count])
            let encoder = SyncWire.encoder()
            for row in pending {
                let rowID: Int64 = row["id"]
                guard let entity = SyncEntity.named(row["entity"]),
                    let mutation = try AppDatabase.seal(db, entity, id: row["entity_id"], dirty: row["dirty"], number: next + 1)
                else {
                    try db.cachedExecute("DELETE FROM sync_outbox WHERE id = ?", [rowID])
                    continue
                }
                next += 1
                mutations.append(mutation)
                try db.cachedExecute(
                    "UPDATE sync_outbox SET mutation_id = ?, payload = ? WHERE id = ?",
                    [next, String(decoding: try encoder.encode(mutation), as: UTF8.self), rowID])
            }
            try db.cachedExecute("UPDATE sync_state SET last_mutation_id = ?", [next])
            return mutations
        }
    }

    /// Forgets the mutations the server holds (ids up to `lastMutationId`), and takes the answer's
    /// `serverTime` (`observeServerTime`).
    public func acknowledge(through lastMutationId: Int64, serverTime: Date? = nil) throws {
        let reading = environment.clockReading()
        try write { db in
            if let serverTime { try AppDatabase.observeServerTime(db, serverTime, reading: reading) }
            try db.cachedExecute("DELETE FROM sync_outbox WHERE mutation_id IS NOT NULL AND mutation_id <= ?", [lastMutationId])
            try db.cachedExecute("UPDATE sync_state SET acked_mutation_id = max(acked_mutation_id, ?)", [lastMutationId])
        }
    }

    /// How many entities wait to be pushed.
    public func pendingCount() throws -> Int {
        try writer.snapshotRead { db in try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM sync_outbox")) ?? 0 }
    }

    /// Opens sealed mutations again (the server refused the batch as too large: they are sealed anew
    /// in smaller batches, under new ids, from the rows as they are now).
    public func unseal() throws {
        try write { db in
            guard let acked = try Int64.fetchOne(db.cachedStatement(sql: "SELECT acked_mutation_id FROM sync_state")) else {
                throw SyncStoreError.notLoggedIn
            }
            let sealed = try db.cachedRows(
                "SELECT id, entity, entity_id, dirty FROM sync_outbox WHERE mutation_id IS NOT NULL ORDER BY mutation_id")
            try db.cachedExecute("DELETE FROM sync_outbox WHERE mutation_id IS NOT NULL")
            for row in sealed {
                try db.cachedExecute(
                    """
                    INSERT INTO sync_outbox (entity, entity_id, dirty, fresh) VALUES (?, ?, ?, 0)
                    ON CONFLICT (entity, entity_id) WHERE mutation_id IS NULL DO UPDATE SET dirty = dirty | excluded.dirty
                    """, [row["entity"] as String, row["entity_id"] as String, row["dirty"] as Int])
            }
            try db.cachedExecute("UPDATE sync_state SET last_mutation_id = ?", [acked])
        }
    }

    /// Whether a pull from 0 after `resetCursor` is under way (it must see every row).
    public func isPullingEverything() throws -> Bool {
        try writer.snapshotRead { db in try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM sync_unseen LIMIT 1")) == true }
    }

    /// Pulls everything again from position 0 (a cursor the server no longer serves: it dropped
    /// deletions this device never saw). Every synced row is noted; those the full pull does not
    /// bring back were deleted elsewhere and go when it completes — unless changed here since.
    public func resetCursor() throws {
        try write { db in
            try db.cachedExecute("UPDATE sync_state SET cursor = 0, cursor_checksum = ''")
            try db.cachedExecute("DELETE FROM sync_unseen")
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO sync_unseen (entity, entity_id)
                    SELECT entity, entity_id FROM sync_clock WHERE grp = \(SyncEntity.aliveBit) OR grp = 0
                    """)
        }
    }
}
