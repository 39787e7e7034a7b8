#if Postgres
    import Foundation
    import GroveCore
    import PostgresNIO

    /// Restore points on PostgreSQL: the states pushes replaced, kept by a trigger (`sync-v4-keys-history`).
    extension PostgresSyncStore {
        public func historySince() async throws -> Date {
            let rows = try await client.query("SELECT value FROM sync_meta WHERE name = 'history-since'", logger: logger)
            let value = try await rows.decode(ByteBuffer.self).all().first
            return Date(groveMillis: value.flatMap { Int64(String(buffer: $0)) } ?? 0)
        }

        public func snapshot(userId: Int64, asOf: Date, after: EntityKey?, limit: Int) async throws -> [SyncChange] {
            let (entity, id, millis) = (after?.entity ?? "", after?.id ?? "", asOf.groveMillis)
            let rows = try await client.query(
                """
                (SELECT entity, entity_id, seq, state FROM sync_entity
                 WHERE user_id = \(userId) AND (entity, entity_id) > (\(entity), \(id)) AND coalesce(written_at, 0) <= \(millis) AND NOT deleted
                 ORDER BY entity, entity_id LIMIT \(limit))
                UNION ALL
                (SELECT entity, entity_id, seq, state FROM sync_history
                 WHERE user_id = \(userId) AND (entity, entity_id) > (\(entity), \(id)) AND written_at <= \(millis) AND superseded_at > \(millis)
                     AND NOT deleted
                 ORDER BY entity, entity_id LIMIT \(limit))
                ORDER BY 1, 2 LIMIT \(limit)
                """, logger: logger)
            let decoder = JSONDecoder()
            var changes: [SyncChange] = []
            for try await (entity, id, seq, state) in rows.decode((String, String, Int64, String).self) {
                changes.append(
                    SyncChange(
                        seq: seq, entity: entity, entityId: id, state: try StoredState.state(state, decoder: decoder), deleted: false))
            }
            return changes
        }

        public func pruneHistory(replacedBefore before: Date) async throws -> Int {
            let rows = try await client.query(
                "WITH gone AS (DELETE FROM sync_history WHERE superseded_at < \(before.groveMillis) RETURNING 1) SELECT count(*) FROM gone",
                logger: logger)
            return Int(try await rows.decode(Int64.self).all().first ?? 0)
        }
    }
#endif
