import GRDB
import GroveCore

/// The triggers that write every change of a synced table to the outbox, in the writing transaction.
///
/// They exist only while the store is linked to a server (`sync.begin` installs them, `sync.end` drops
/// them): a store that never syncs pays nothing, and an import into it runs at full speed. They are
/// made from `SyncEntity`, the same description every merge reads; a store opened by a Grove whose
/// description changed gets them again (`ensureCurrent`).
enum SyncCapture {
    struct Trigger: Equatable {
        let name: String
        let sql: String
    }

    static let prefix = "sync_capture_"

    /// The three triggers of each synced table.
    static let triggers: [Trigger] = SyncEntity.all.flatMap(triggers(for:))

    private static func triggers(for entity: SyncEntity) -> [Trigger] {
        let all = entity.allGroupBits
        let alive = 1 << SyncEntity.aliveBit, tomb = 1 << SyncEntity.tombBit
        let id = { (row: String) in entity.singleton.map { "'\($0)'" } ?? "\(row).\(entity.keyColumn)" }
        // Rows that stay on this device (presets, bundled content) are never captured.
        let keep = { (row: String) in entity.localOnly.map { " AND NOT (\(row).\($0))" } ?? "" }
        let applying = "NOT EXISTS (SELECT 1 FROM sync_applying)"
        let upsert =
            "ON CONFLICT (entity, entity_id) WHERE mutation_id IS NULL DO UPDATE SET dirty = dirty | excluded.dirty, fresh = fresh | excluded.fresh"
        let changed = entity.groups.enumerated().map { index, group in
            "(CASE WHEN " + group.fields.map { "OLD.\($0.column) IS NOT NEW.\($0.column)" }.joined(separator: " OR ")
                + " THEN \(1 << index) ELSE 0 END)"
        }.joined(separator: " | ")
        let table = entity.table
        return [
            Trigger(
                name: prefix + table + "_insert",
                sql: """
                    CREATE TRIGGER \(prefix)\(table)_insert AFTER INSERT ON \(table) WHEN \(applying)\(keep("NEW")) BEGIN
                        INSERT INTO sync_outbox (entity, entity_id, dirty, fresh) VALUES ('\(entity.name)', \(id("NEW")), \(all | alive), \(all | alive)) \(upsert);
                    END
                    """),
            Trigger(
                name: prefix + table + "_update",
                sql: """
                    CREATE TRIGGER \(prefix)\(table)_update AFTER UPDATE ON \(table) WHEN \(applying)\(keep("NEW")) BEGIN
                        INSERT INTO sync_outbox (entity, entity_id, dirty, fresh)
                        SELECT '\(entity.name)', \(id("NEW")), bits, bits FROM (SELECT \(changed) AS bits) WHERE bits <> 0 \(upsert);
                    END
                    """),
            Trigger(
                name: prefix + table + "_delete",
                sql: """
                    CREATE TRIGGER \(prefix)\(table)_delete AFTER DELETE ON \(table) WHEN \(applying)\(keep("OLD")) BEGIN
                        INSERT INTO sync_outbox (entity, entity_id, dirty, fresh) VALUES ('\(entity.name)', \(id("OLD")), \(tomb), \(tomb))
                        ON CONFLICT (entity, entity_id) WHERE mutation_id IS NULL DO UPDATE SET dirty = \(tomb), fresh = fresh | \(tomb);
                    END
                    """),
        ]
    }

    /// The capture triggers the store has now (every store's opening asks, `ensureSyncCapture`).
    static func installed(_ db: Database) throws -> [Trigger] {
        try db.cachedRows(
            "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'sync\\_capture\\_%' ESCAPE '\\' ORDER BY name"
        )
        .map { Trigger(name: $0["name"], sql: $0["sql"]) }
    }

    static func install(_ db: Database) throws {
        try remove(db)
        for trigger in triggers { try db.execute(sql: trigger.sql) }
    }

    static func remove(_ db: Database) throws {
        for trigger in try installed(db) { try db.execute(sql: "DROP TRIGGER \(trigger.name)") }
    }

    /// Whether a linked store's triggers are the ones this Grove makes (an unlinked store has none).
    static func isCurrent(_ db: Database) throws -> Bool {
        let linked = try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM sync_state")) == true
        let have = try installed(db)
        guard linked else { return have.isEmpty }
        return have.sorted { $0.name < $1.name } == triggers.sorted { $0.name < $1.name }
    }
}

extension AppDatabase {
    /// Puts the capture triggers in step with the link state (a store linked by another Grove version,
    /// or one whose link was removed by hand). One read when they are; a write only when they are not.
    func ensureSyncCapture() throws {
        guard try !writer.snapshotRead({ try SyncCapture.isCurrent($0) }) else { return }
        try write { db in
            if try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM sync_state")) == true {
                try SyncCapture.install(db)
            } else {
                try SyncCapture.remove(db)
            }
        }
    }
}
