#if Postgres
import Foundation
import GroveCore
import Logging
import PostgresNIO

/// The sync server's store for a hosted service: PostgreSQL, any number of server instances on one
/// database (SYNC.md "Storage").
///
/// Every query is scoped by the user the caller's token belongs to. A push locks its user's row
/// (`SELECT … FOR UPDATE`) and bumps that user's `head` in the same transaction — a per-user
/// sequence, never a global serial — so a user's pushes commit in sequence order and a pull never
/// sees a later sequence number before an earlier one. The transaction also queues a `NOTIFY`, which
/// PostgreSQL delivers on commit to every instance's listener (`PostgresPokeListener`).
public struct PostgresSyncStore: SyncStore {
    /// The pool; its `run()` must be running (`PostgresSyncStore.run` or the server's service group).
    public let client: PostgresClient
    let logger: Logger

    /// The channel every instance listens on; payloads are `user:head`.
    public static let channel = "grove_sync"

    public init(client: PostgresClient, logger: Logger = Logger(label: "grove.sync-server.postgres")) {
        self.client = client
        self.logger = logger
    }

    // MARK: Users

    public func createUser(name: String, passwordHash: String, now: Date) async throws -> SyncUser {
        let rows = try await client.query("""
            INSERT INTO sync_user (name, password_hash, created_at) VALUES (\(name), \(passwordHash), \(now.groveMillis))
            ON CONFLICT (name) DO NOTHING RETURNING id
            """, logger: logger)
        guard let id = try await rows.decode(Int64.self).all().first else { throw SyncServerError.userExists(name) }
        return SyncUser(id: id, name: name, passwordHash: passwordHash, disabled: false, createdAt: now)
    }

    public func user(named name: String) async throws -> SyncUser? {
        try await users(client.query("SELECT id, name, password_hash, disabled, created_at FROM sync_user WHERE name = \(name)", logger: logger)).first
    }

    public func users() async throws -> [SyncUser] {
        try await users(client.query("SELECT id, name, password_hash, disabled, created_at FROM sync_user ORDER BY name", logger: logger))
    }

    private func users(_ rows: PostgresRowSequence) async throws -> [SyncUser] {
        try await rows.decode((Int64, String, String, Bool, Int64).self).all().map { id, name, hash, disabled, created in
            SyncUser(id: id, name: name, passwordHash: hash, disabled: disabled, createdAt: Date(groveMillis: created))
        }
    }

    public func setUser(named name: String, disabled: Bool) async throws -> Bool {
        let rows = try await client.query("UPDATE sync_user SET disabled = \(disabled) WHERE name = \(name) RETURNING id", logger: logger)
        return try await !rows.decode(Int64.self).all().isEmpty
    }

    // MARK: Devices

    public func registerDevice(id: UUID, userId: Int64, name: String, tokenPrefix: String, tokenHash: String, now: Date) async throws {
        try await client.query("""
            INSERT INTO sync_device (id, user_id, name, token_prefix, token_hash, created_at, last_seen)
            VALUES (\(id.uuidString), \(userId), \(name), \(tokenPrefix), \(tokenHash), \(now.groveMillis), \(now.groveMillis))
            """, logger: logger)
    }

    public func device(tokenPrefix: String) async throws -> (StoredDevice, SyncUser)? {
        let found = try await client.execute(PostgresStatements.DeviceByPrefix(prefix: tokenPrefix), logger: logger).all()
        if let (id, userId, name, tokenHash, lastMutation, lastSeen, revoked, userName, passwordHash, disabled, created) = found.first {
            guard let uuid = UUID(uuidString: id) else { return nil }
            let device = StoredDevice(id: uuid, userId: userId, name: name, tokenHash: tokenHash, lastMutationId: lastMutation,
                                      lastSeen: lastSeen.map(Date.init(groveMillis:)), revoked: revoked)
            return (device, SyncUser(id: userId, name: userName, passwordHash: passwordHash, disabled: disabled, createdAt: Date(groveMillis: created)))
        }
        return nil
    }

    public func devices(userId: Int64) async throws -> [DeviceInfo] {
        let rows = try await client.query("""
            SELECT id, name, created_at, last_seen, last_mutation_id, revoked FROM sync_device
            WHERE user_id = \(userId) ORDER BY created_at, id
            """, logger: logger)
        var devices: [DeviceInfo] = []
        for try await (id, name, created, lastSeen, lastMutation, revoked) in rows.decode((String, String, Int64, Int64?, Int64, Bool).self) {
            guard let uuid = UUID(uuidString: id) else { continue }
            devices.append(DeviceInfo(deviceId: uuid, name: name, createdAt: Date(groveMillis: created), lastSeen: lastSeen.map(Date.init(groveMillis:)),
                                      lastMutationId: lastMutation, revoked: revoked))
        }
        return devices
    }

    public func revokeDevice(_ id: UUID, userId: Int64) async throws -> Bool {
        let rows = try await client.query("""
            UPDATE sync_device SET revoked = true WHERE id = \(id.uuidString) AND user_id = \(userId) RETURNING id
            """, logger: logger)
        return try await !rows.decode(String.self).all().isEmpty
    }

    public func touchDevice(_ id: UUID, now: Date) async throws {
        try await client.query("UPDATE sync_device SET last_seen = \(now.groveMillis) WHERE id = \(id.uuidString)", logger: logger)
    }

    // MARK: Push and pull

    /// Five round trips whatever the push holds: begin; lock the user's row and read the device; read
    /// the touched rows and the open sessions; write everything (rows, history, head, device, notify)
    /// in one statement; commit.
    public func push(userId: Int64, deviceId: UUID, request: PushRequest, now: Date) async throws -> PushPlan {
        let logger = logger
        return try await client.transaction(logger: logger) { connection -> PushPlan in
            // The user's row is the lock that orders this user's pushes (other users are not held up).
            let found = try await connection.execute(PostgresStatements.LockForPush(userId: userId, deviceId: deviceId.uuidString), logger: logger).all()
            guard let (head, last, lastDigest) = found.first else { throw SyncServerError.unauthorized }
            try MutationDigest.checkReplay(request.mutations, lastMutationId: last, lastDigest: lastDigest)

            let decoder = JSONDecoder()
            let touched = Array(Set(request.mutations.filter { $0.id > last }.map { EntityKey(entity: $0.entity, id: $0.entityId) }))
            var stored: [EntityKey: SyncState] = [:]
            var open: [EntityKey: SyncState] = [:]
            let rows = try await connection.execute(PostgresStatements.TouchedAndOpen(userId: userId, entities: touched.map(\.entity), ids: touched.map(\.id)),
                                                    logger: logger)
            for try await (entity, id, text, isTouched) in rows {
                let state = try StoredState.state(text, decoder: decoder)
                if isTouched { stored[EntityKey(entity: entity, id: id)] = state } else { open[EntityKey(entity: entity, id: id)] = state }
            }
            let plan = try PushPlan.make(schemaVersion: request.schemaVersion, mutations: request.mutations, lastMutationId: last, head: head,
                                         stored: stored, openSessions: open, now: now)
            let digest = MutationDigest.of(request.mutations.first { $0.id == plan.lastMutationId }) ?? lastDigest
            guard !plan.writes.isEmpty else {
                try await connection.query("""
                    UPDATE sync_device SET last_mutation_id = \(plan.lastMutationId), last_mutation_digest = \(digest) WHERE id = \(deviceId.uuidString)
                    """, logger: logger)
                return plan
            }
            let writes = plan.writes
            let states = try writes.map { try StoredState.text($0.state) }
            // Every write in one statement (data-modifying CTEs always run to completion): arrays, not a
            // round trip a row. The notification is delivered to every instance's listener when, and
            // only if, this transaction commits.
            try await connection.query("""
                WITH entities AS (
                    INSERT INTO sync_entity (user_id, entity, entity_id, seq, hlc, deleted, open, writer, echo, state)
                    SELECT \(userId), w.entity, w.entity_id, w.seq, NULLIF(w.hlc, ''), w.deleted, w.open, \(deviceId.uuidString), w.echo, w.state
                    FROM unnest(\(writes.map(\.key.entity))::text[], \(writes.map(\.key.id))::text[], \(writes.map(\.seq))::bigint[],
                                \(writes.map { $0.state.latest?.description ?? "" })::text[], \(writes.map(\.deleted))::boolean[],
                                \(writes.map(\.open))::boolean[], \(writes.map(\.echoesWriter))::boolean[], \(states)::text[])
                         AS w (entity, entity_id, seq, hlc, deleted, open, echo, state)
                    ON CONFLICT (user_id, entity, entity_id) DO UPDATE SET seq = excluded.seq, hlc = excluded.hlc, deleted = excluded.deleted,
                        open = excluded.open, writer = excluded.writer, echo = excluded.echo, state = excluded.state
                    RETURNING 1
                ), history AS (
                    INSERT INTO sync_log (user_id, seq, digest)
                    SELECT \(userId), l.seq, l.digest FROM unnest(\(writes.map(\.seq))::bigint[], \(writes.map(\.digest))::text[]) AS l (seq, digest)
                    ON CONFLICT (user_id, seq) DO UPDATE SET digest = excluded.digest
                    RETURNING 1
                ), moved AS (
                    UPDATE sync_user SET head = \(plan.head) WHERE id = \(userId) RETURNING 1
                ), device AS (
                    UPDATE sync_device SET last_mutation_id = \(plan.lastMutationId), last_mutation_digest = \(digest)
                    WHERE id = \(deviceId.uuidString) RETURNING 1
                )
                SELECT pg_notify(\(Self.channel), \("\(userId):\(plan.head)"))
                """, logger: logger)
            return plan
        }
    }

    public func pull(userId: Int64, deviceId: UUID, cursor: Int64, limit: Int, includeOwn: Bool) async throws -> StoredPage {
        // The cursor acknowledged and the head read in one round trip; the head before the rows: a push
        // committing in between only makes this page end early.
        let head = try await client.query("""
            WITH acked AS (
                UPDATE sync_device SET acked_cursor = GREATEST(acked_cursor, \(cursor)) WHERE id = \(deviceId.uuidString) AND user_id = \(userId)
                RETURNING 1
            )
            SELECT head FROM sync_user WHERE id = \(userId)
            """, logger: logger).decode(Int64.self).all().first ?? 0
        let rows = try await client.query("""
            SELECT seq, entity, entity_id, deleted, state FROM sync_entity
            WHERE user_id = \(userId) AND seq > \(cursor) AND NOT (echo AND writer = \(includeOwn ? "" : deviceId.uuidString))
            ORDER BY seq LIMIT \(Int64(limit) + 1)
            """, logger: logger)
        let decoder = JSONDecoder()
        var changes: [SyncChange] = []
        var more = false
        for try await (seq, entity, id, deleted, text) in rows.decode((Int64, String, String, Bool, String).self) {
            guard changes.count < limit else { more = true; continue }
            changes.append(SyncChange(seq: seq, entity: entity, entityId: id, state: try StoredState.state(text, decoder: decoder), deleted: deleted))
        }
        let next = more ? (changes.last?.seq ?? cursor) : max(cursor, head)
        let checksum = next == 0 ? "" : try await digest(userId: userId, seq: next)
        return StoredPage(changes: changes, hasMore: more, head: head, cursor: next, checksum: checksum)
    }

    public func head(userId: Int64) async throws -> (head: Int64, horizon: Int64) {
        try await client.query("SELECT head, horizon FROM sync_user WHERE id = \(userId)", logger: logger)
            .decode((Int64, Int64).self).all().first ?? (0, 0)
    }

    public func digest(userId: Int64, seq: Int64) async throws -> String {
        try await client.query("SELECT digest FROM sync_log WHERE user_id = \(userId) AND seq = \(seq)", logger: logger)
            .decode(String.self).all().first ?? ""
    }

    public func entities(userId: Int64) async throws -> [EntityKey: SyncState] {
        let decoder = JSONDecoder()
        var result: [EntityKey: SyncState] = [:]
        for try await (entity, id, text) in try await client.query("""
            SELECT entity, entity_id, state FROM sync_entity WHERE user_id = \(userId)
            """, logger: logger).decode((String, String, String).self) {
            result[EntityKey(entity: entity, id: id)] = try StoredState.state(text, decoder: decoder)
        }
        return result
    }

    public func pruneTombstones(userId: Int64, olderThan: Date, devicesSeenSince: Date) async throws -> Int {
        let logger = logger
        let limit = HLCText.stamp(olderThan)
        return try await client.transaction(logger: logger) { connection -> Int in
            var pulledPast: Int64 = 0
            for try await value in try await connection.query("""
                SELECT COALESCE(min(acked_cursor), 0) FROM sync_device
                WHERE user_id = \(userId) AND NOT revoked AND COALESCE(last_seen, 0) >= \(devicesSeenSince.groveMillis)
                """, logger: logger).decode(Int64.self) { pulledPast = value }
            var removed = 0
            for try await _ in try await connection.query("""
                DELETE FROM sync_entity WHERE user_id = \(userId) AND deleted AND seq <= \(pulledPast) AND hlc < \(limit) RETURNING seq
                """, logger: logger).decode(Int64.self) { removed += 1 }
            if removed > 0 {
                try await connection.query("UPDATE sync_user SET horizon = GREATEST(horizon, \(pulledPast)) WHERE id = \(userId)", logger: logger)
                try await connection.query("DELETE FROM sync_log WHERE user_id = \(userId) AND seq < \(pulledPast)", logger: logger)
            }
            return removed
        }
    }

    public func checkReady() async throws {
        _ = try await client.query("SELECT 1", logger: logger).decode(Int32.self).all()
    }
}

extension AsyncSequence {
    /// Every element (a query's rows are read to the end, so that its connection goes back to the pool).
    func all() async throws -> [Element] {
        var elements: [Element] = []
        for try await element in self { elements.append(element) }
        return elements
    }
}
#endif

#if Postgres
extension PostgresClient {
    /// `withTransaction`, throwing what the closure threw (a refusal, a typed store error) rather than
    /// PostgresNIO's wrapper around it; database failures (begin, commit, rollback) stay as they are.
    func transaction<T: Sendable>(logger: Logger, _ body: (PostgresConnection) async throws -> T) async throws -> T {
        do {
            return try await withTransaction(logger: logger) { connection in try await body(connection) }
        } catch let error as PostgresTransactionError {
            if let closureError = error.closureError, error.rollbackError == nil { throw closureError }
            throw error
        }
    }
}
#endif
