import Foundation
import GRDB
import GroveCore

/// Restore points on SQLite: the states pushes replaced, kept by a trigger (`sync-v4-keys-history`).
extension SQLiteSyncStore {
    public func historySince() async throws -> Date {
        try await writer.snapshotRead { db in
            let text = try Data.fetchOne(db.cachedStatement(sql: "SELECT value FROM sync_meta WHERE name = 'history-since'"))
            return Date(groveMillis: text.flatMap { Int64(String(decoding: $0, as: UTF8.self)) } ?? 0)
        }
    }

    public func snapshot(userId: Int64, asOf: Date, after: EntityKey?, limit: Int) async throws -> [SyncChange] {
        try await writer.snapshotRead { db in
            // Both halves walk their (user, entity, id) index from the page's start; the merge is SQLite's.
            let rows = try db.cachedRows(
                """
                SELECT entity, entity_id, seq, state FROM sync_entity
                WHERE user_id = ?1 AND (entity, entity_id) > (?2, ?3) AND coalesce(written_at, 0) <= ?4 AND deleted = 0
                UNION ALL
                SELECT entity, entity_id, seq, state FROM sync_history
                WHERE user_id = ?1 AND (entity, entity_id) > (?2, ?3) AND written_at <= ?4 AND superseded_at > ?4 AND deleted = 0
                ORDER BY 1, 2 LIMIT ?5
                """, [userId, after?.entity ?? "", after?.id ?? "", asOf.groveMillis, limit])
            let decoder = JSONDecoder()
            return try rows.map { row in
                SyncChange(
                    seq: row["seq"], entity: row["entity"], entityId: row["entity_id"],
                    state: try StoredState.state(row["state"], decoder: decoder), deleted: false)
            }
        }
    }

    public func pruneHistory(replacedBefore before: Date) async throws -> Int {
        try await writer.write { db in
            try db.cachedExecute("DELETE FROM sync_history WHERE superseded_at < ?", [before.groveMillis])
            return db.changesCount
        }
    }
}
