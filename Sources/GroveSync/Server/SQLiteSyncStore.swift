import Foundation
import GRDB
import GroveCore
import GroveStore

/// The sync server's embedded store: one SQLite file (WAL), every user in it.
///
/// Pushes are serialised by SQLite's single writer; each bumps its user's `head` in the same
/// transaction, so a pull never sees a sequence number whose rows are not committed.
public struct SQLiteSyncStore: SyncStore {
    let writer: any DatabaseWriter

    /// Opens (creating) the file at `path`, or a private in-memory store when `path` is nil.
    /// `createDirectory`: make a missing directory (0700) for it — for the default place only: a path
    /// someone typed names a directory that exists.
    public init(path: String?, createDirectory: Bool = true) throws {
        SQLiteProcess.prepare()
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(10)
        // secure_delete: a replaced or deleted state is overwritten in its page, not left in free
        // space — a value sent before its account was encrypted does not outlive its sealed copy.
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = FULL; PRAGMA secure_delete = ON") }
        if let path {
            // The file is the accounts' password hashes and everyone's data: the owner's alone, and
            // only a sync server's database (a device store would be migrated and locked out).
            try AppDatabase.prepareFile(path: path, createDirectory: createDirectory)
            try AppDatabase.lookingWithoutTrace(at: path) { try Self.refuseOtherDatabase(at: path) }
            let pool = try DatabasePool(path: path, configuration: configuration)
            // GRDB turns a pool's writer to `synchronous = NORMAL` after `prepareDatabase`: back to
            // FULL, so that an acknowledged push survives a power loss (SYNC.md "Acknowledged means on disk").
            try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
            writer = pool
        } else {
            writer = try DatabaseQueue(configuration: configuration)
        }
        try Self.migrator.migrate(writer)
        if let path { AppDatabase.narrowFile(path: path) }
    }

    /// `PRAGMA synchronous` of the connection that commits pushes (2 is FULL: every commit is fsynced).
    public func synchronousLevel() async throws -> Int {
        try await writer.write { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1 }
    }

    /// Refuses a database that is not a sync server's (a Grove device store, another program's), before
    /// anything is written to it: looked at read-only.
    static func refuseOtherDatabase(at path: String) throws {
        var configuration = Configuration()
        configuration.readonly = true
        let probe = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? probe.close() }
        let known = Set(migrator.migrations)
        let verdict = try probe.read { db -> String? in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' LIMIT 1") == true else {
                return nil
            }
            guard try db.tableExists("grdb_migrations") else { return "an SQLite database of another program" }
            let applied = try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")
            if applied.contains(where: known.contains) { return nil }
            return try db.tableExists("focus_session")
                ? "a Grove device store (give `grove sync-server` a file of its own)"
                : "an SQLite database of another program"
        }
        if let verdict { throw StoreError.notAStore(path: path, what: verdict) }
    }

    /// A consistent copy of the whole server at `path` (SQLite's backup API): what a nightly backup does.
    public func backup(to path: String) async throws {
        let copy = try DatabaseQueue(path: path)
        try writer.backup(to: copy)
    }

    // MARK: Push and pull

    public func push(userId: Int64, deviceId: UUID, request: PushRequest, now: Date) async throws -> PushPlan {
        try await writer.write { db in
            guard let user = try db.cachedRow("SELECT head, key_id FROM sync_user WHERE id = ?", [userId]),
                let head = user["head"] as Int64?,
                let device = try Row.fetchOne(
                    db.cachedStatement(sql: "SELECT last_mutation_id, last_mutation_digest FROM sync_device WHERE id = ?"),
                    arguments: [deviceId.uuidString])
            else { throw SyncServerError.unauthorized }
            let last: Int64 = device["last_mutation_id"]
            try MutationDigest.checkReplay(request.mutations, lastMutationId: last, lastDigest: device["last_mutation_digest"])
            var stored: [EntityKey: SyncState] = [:]
            let decoder = JSONDecoder()
            for mutation in request.mutations where mutation.id > last {
                let key = EntityKey(entity: mutation.entity, id: mutation.entityId)
                guard stored[key] == nil,
                    let text = try String.fetchOne(
                        db.cachedStatement(sql: "SELECT state FROM sync_entity WHERE user_id = ? AND entity = ? AND entity_id = ?"),
                        arguments: [userId, key.entity, key.id])
                else { continue }
                stored[key] = try StoredState.state(text, decoder: decoder)
            }
            var open: [EntityKey: SyncState] = [:]
            for row in try Row.fetchAll(
                db.cachedStatement(
                    sql: "SELECT entity_id, state FROM sync_entity WHERE user_id = ? AND entity = 'focusSession' AND open = 1"),
                arguments: [userId])
            {
                open[EntityKey(entity: "focusSession", id: row["entity_id"])] = try StoredState.state(row["state"], decoder: decoder)
            }
            let plan = try PushPlan.make(
                schemaVersion: request.schemaVersion, mutations: request.mutations, lastMutationId: last, head: head,
                stored: stored, openSessions: open, now: now, sealedKey: user["key_id"])
            for write in plan.writes {
                try db.cachedExecute(
                    """
                    INSERT INTO sync_entity (user_id, entity, entity_id, seq, hlc, deleted, open, writer, echo, state, written_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (user_id, entity, entity_id) DO UPDATE SET seq = excluded.seq, hlc = excluded.hlc, deleted = excluded.deleted,
                        open = excluded.open, writer = excluded.writer, echo = excluded.echo, state = excluded.state,
                        written_at = excluded.written_at
                    """,
                    [
                        userId, write.key.entity, write.key.id, write.seq, write.state.latest?.description, write.deleted, write.open,
                        deviceId.uuidString, write.echoesWriter, try StoredState.text(write.state), now.groveMillis,
                    ])
                try db.cachedExecute(
                    "INSERT OR REPLACE INTO sync_log (user_id, seq, digest) VALUES (?, ?, ?)", [userId, write.seq, write.digest])
            }
            try db.cachedExecute("UPDATE sync_user SET head = ? WHERE id = ?", [plan.head, userId])
            let digest =
                MutationDigest.of(request.mutations.first { $0.id == plan.lastMutationId }) ?? (device["last_mutation_digest"] as String)
            try db.cachedExecute(
                "UPDATE sync_device SET last_mutation_id = ?, last_mutation_digest = ? WHERE id = ?",
                [plan.lastMutationId, digest, deviceId.uuidString])
            return plan
        }
    }

    public func pull(userId: Int64, deviceId: UUID, cursor: Int64, limit: Int, includeOwn: Bool) async throws -> StoredPage {
        try await writer.write { db in
            try db.cachedExecute("UPDATE sync_device SET acked_cursor = max(acked_cursor, ?) WHERE id = ?", [cursor, deviceId.uuidString])
            let head = try Int64.fetchOne(db.cachedStatement(sql: "SELECT head FROM sync_user WHERE id = ?"), arguments: [userId]) ?? 0
            let rows = try db.cachedRows(
                """
                SELECT seq, entity, entity_id, deleted, state FROM sync_entity
                WHERE user_id = ? AND seq > ? AND NOT (echo = 1 AND writer = ?) ORDER BY seq LIMIT ?
                """, [userId, cursor, includeOwn ? "" : deviceId.uuidString, limit + 1])
            let decoder = JSONDecoder()
            var changes: [SyncChange] = []
            for row in rows.prefix(limit) {
                let state = try StoredState.state(row["state"], decoder: decoder)
                changes.append(
                    SyncChange(seq: row["seq"], entity: row["entity"], entityId: row["entity_id"], state: state, deleted: row["deleted"]))
            }
            let hasMore = rows.count > limit
            let next = hasMore ? (changes.last?.seq ?? cursor) : max(cursor, head)
            let checksum =
                next == 0
                ? ""
                : try String.fetchOne(
                    db.cachedStatement(sql: "SELECT digest FROM sync_log WHERE user_id = ? AND seq = ?"),
                    arguments: [userId, next]) ?? ""
            return StoredPage(changes: changes, hasMore: hasMore, head: head, cursor: next, checksum: checksum)
        }
    }

    public func head(userId: Int64) async throws -> (head: Int64, horizon: Int64) {
        try await writer.snapshotRead { db in
            let row = try db.cachedRow("SELECT head, horizon FROM sync_user WHERE id = ?", [userId])
            return (row?["head"] ?? 0, row?["horizon"] ?? 0)
        }
    }

    public func digest(userId: Int64, seq: Int64) async throws -> String {
        try await writer.snapshotRead { db in
            try String.fetchOne(
                db.cachedStatement(sql: "SELECT digest FROM sync_log WHERE user_id = ? AND seq = ?"), arguments: [userId, seq]) ?? ""
        }
    }

    public func entities(userId: Int64) async throws -> [EntityKey: SyncState] {
        try await writer.snapshotRead { db in
            var result: [EntityKey: SyncState] = [:]
            let decoder = JSONDecoder()
            for row in try db.cachedRows("SELECT entity, entity_id, state FROM sync_entity WHERE user_id = ?", [userId]) {
                result[EntityKey(entity: row["entity"], id: row["entity_id"])] = try StoredState.state(row["state"], decoder: decoder)
            }
            return result
        }
    }

    public func checkReady() async throws {
        _ = try await writer.snapshotRead { db in try Int.fetchOne(db, sql: "SELECT 1") }
        // Reads still work on a full disk; a push would not: not ready for a load balancer.
        var info = statvfs()
        let directory = (writer.path as NSString).deletingLastPathComponent
        if !writer.path.isEmpty, writer.path != ":memory:", statvfs(directory.isEmpty ? "." : directory, &info) == 0,
            UInt64(info.f_bavail) * UInt64(info.f_frsize) < Self.minimumFreeBytes
        {
            throw SyncReadinessError.diskFull
        }
    }

    /// Free space below this on the database's file system: the server says it cannot write.
    static let minimumFreeBytes: UInt64 = 1 << 20

    public func pruneTombstones(userId: Int64, olderThan: Date, devicesSeenSince: Date) async throws -> Int {
        try await writer.write { db in
            let pulledPast =
                try Int64.fetchOne(
                    db.cachedStatement(
                        sql: """
                            SELECT min(acked_cursor) FROM sync_device WHERE user_id = ? AND revoked = 0 AND coalesce(last_seen, 0) >= ?
                            """), arguments: [userId, devicesSeenSince.groveMillis]) ?? 0
            let limit = "\(HLCText.stamp(olderThan))"
            try db.cachedExecute(
                "DELETE FROM sync_entity WHERE user_id = ? AND deleted = 1 AND seq <= ? AND hlc < ?", [userId, pulledPast, limit])
            let removed = db.changesCount
            if removed > 0 {
                try db.cachedExecute("UPDATE sync_user SET horizon = max(horizon, ?) WHERE id = ?", [pulledPast, userId])
                // History digests older than the horizon are never asked for (such cursors get 410).
                try db.cachedExecute("DELETE FROM sync_log WHERE user_id = ? AND seq < ?", [userId, pulledPast])
            }
            return removed
        }
    }
}

/// Clock text for a date (the prefix every clock of that instant starts with).
enum HLCText {
    static func stamp(_ date: Date) -> String { HLC(millis: date.groveMillis, counter: 0, node: PushPlan.serverNode).description }
}
