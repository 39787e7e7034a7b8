import Foundation
import GRDB
import GroveCore

extension SyncRoom {
    /// Queues `rows` — those of them this store holds — to be sent again whole, and this device's
    /// deletions with them: what an unlock must seal when the server names the rows it still keeps
    /// in plain (`PlainRows`), instead of everything this store holds (SYNC.md "Private sync").
    public func resend(_ rows: [EntityKey]) throws {
        try write { db in
            guard let device = try AppDatabase.syncDevice(db) else { throw SyncStoreError.notLoggedIn }
            let node = HLC.node(for: device.deviceId)
            for row in rows {
                // A kind this build does not know cannot be held here.
                guard let entity = SyncEntity.named(row.entity) else { continue }
                try AppDatabase.queueRows(db, entity, node: node, keepClocks: true, id: row.id)
            }
            try AppDatabase.queueOwnDeletions(db)
        }
    }
}

extension AppDatabase {
    /// Queues `entity`'s rows (the one with key `id`, when given) as whole inserts; gives rows without
    /// clocks their bootstrap clock, or every row a fresh one unless `keepClocks`.
    static func queueRows(_ db: Database, _ entity: SyncEntity, node: String, keepClocks: Bool, id: String? = nil) throws {
        let alive = 1 << SyncEntity.aliveBit
        let key = entity.singleton.map { "'\($0)'" } ?? entity.keyColumn
        let filter = (entity.localOnly.map { "WHERE NOT (\($0))" } ?? "WHERE true") + (id == nil ? "" : " AND \(key) = ?")
        let stamp =
            entity.bootstrapClockColumn.map { "strftime('%Y-%m-%dT%H:%M:%fZ', max(0, coalesce(\($0), 0)) / 1000.0, 'unixepoch')" }
            ?? "'1970-01-01T00:00:00.000Z'"
        try db.execute(
            sql: """
                INSERT INTO sync_clock (entity, entity_id, grp, hlc)
                SELECT '\(entity.name)', \(key), b.bit, \(stamp) || '-0000-' || ?
                FROM \(entity.table) JOIN sync_bit b ON b.bit < \(entity.groups.count) OR b.bit = \(SyncEntity.aliveBit) \(filter)
                ON CONFLICT (entity, entity_id, grp) DO \(keepClocks ? "NOTHING" : "UPDATE SET hlc = excluded.hlc")
                """, arguments: StatementArguments([node] + (id.map { [$0] } ?? [])))
        try db.execute(
            sql: """
                INSERT INTO sync_outbox (entity, entity_id, dirty, fresh)
                SELECT '\(entity.name)', \(key), \(entity.allGroupBits | alive), 0 FROM \(entity.table) \(filter)
                ON CONFLICT (entity, entity_id) WHERE mutation_id IS NULL DO UPDATE SET dirty = excluded.dirty
                """, arguments: StatementArguments(id.map { [$0] } ?? []))
    }

    /// Queues again the tombstones of the deletions this device made: the server may not have them,
    /// or have them without the sealed mark an encrypted account's deletions carry.
    static func queueOwnDeletions(_ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO sync_outbox (entity, entity_id, dirty, fresh)
                SELECT entity, entity_id, \(1 << SyncEntity.tombBit), 0 FROM sync_clock WHERE grp = \(SyncEntity.tombBit) AND true
                ON CONFLICT (entity, entity_id) WHERE mutation_id IS NULL DO NOTHING
                """)
    }
}
