#if Postgres
    import Foundation
    import GroveCore
    import Logging
    import PostgresNIO

    /// The sync server's store for a hosted service: PostgreSQL, any number of server instances on one
    /// database (SYNC.md "Storage").
    ///
    /// Every query is scoped by the user the caller's token belongs to. A push bumps its user's `head`
    /// — a per-user sequence, never a global serial — in the statement that writes its rows, and only
    /// if the head is still the one its plan was made on (the row lock taken by that update orders the
    /// user's pushes), so a user's pushes commit in sequence order and a pull, one snapshot, never sees
    /// a later sequence number without the earlier ones. The statement also queues a `NOTIFY`, which
    /// PostgreSQL delivers on commit to every instance's listener (`PostgresPokeListener`).
    public struct PostgresSyncStore: SyncStore {
        /// The pool; its `run()` must be running (`PostgresSyncStore.run` or the server's service group).
        public let client: PostgresClient
        let logger: Logger
        /// Optimistic tries before a push takes its user's row lock (0: always lock).
        let optimisticAttempts: Int
        /// Whether the last push met a full disk (`/readyz` says so until one succeeds).
        let diskFull = DiskFullLatch()

        /// The channel every instance listens on; payloads are `user:head`.
        public static let channel = "grove_sync"

        public init(client: PostgresClient, logger: Logger = Logger(label: "grove.sync-server.postgres"), optimisticAttempts: Int = 3) {
            self.client = client
            self.logger = logger
            self.optimisticAttempts = optimisticAttempts
        }

        // MARK: Push and pull

        /// Two round trips whatever the push holds, and no lock held between them: read (`PushRead`), plan,
        /// write (`PushWrite`, its own transaction). The write applies only if the user's head is still
        /// the one read — else another push of this user came between, and the push is planned again on
        /// what that one wrote. After `optimisticAttempts` such races (one user's devices pushing at once,
        /// over and over) the push takes the user's row lock first, which always succeeds.
        public func push(userId: Int64, deviceId: UUID, request: PushRequest, now: Date) async throws -> PushPlan {
            do {
                let plan = try await pushOnce(userId: userId, deviceId: deviceId, request: request, now: now)
                diskFull.record(status: nil)
                return plan
            } catch let error as PSQLError {
                diskFull.record(status: error.serverStatus)
                throw error
            }
        }

        private func pushOnce(userId: Int64, deviceId: UUID, request: PushRequest, now: Date) async throws -> PushPlan {
            let logger = logger
            for _ in 0..<max(0, optimisticAttempts) {
                if let plan = try await client.withConnection({ connection in
                    try await Self.push(on: connection, userId: userId, deviceId: deviceId, request: request, now: now, logger: logger)
                }) {
                    return plan
                }
                logger.debug("push raced another of the same user; planning again", metadata: ["user": "\(userId)"])
            }
            return try await client.transaction(logger: logger) { connection -> PushPlan in
                // The user's row is the lock that orders this user's pushes (other users are not held up).
                guard
                    try await !connection.execute(
                        PostgresStatements.LockForPush(userId: userId, deviceId: deviceId.uuidString), logger: logger
                    )
                    .all().isEmpty
                else { throw SyncServerError.unauthorized }
                // Under the lock nothing can move the head; a write that still does not apply means the
                // device is no longer this user's.
                guard
                    let plan = try await Self.push(
                        on: connection, userId: userId, deviceId: deviceId, request: request, now: now, logger: logger)
                else { throw SyncServerError.unauthorized }
                return plan
            }
        }

        /// One read-plan-write; nil when another push of the user moved the head in between.
        private static func push(
            on connection: PostgresConnection, userId: Int64, deviceId: UUID, request: PushRequest, now: Date,
            logger: Logger
        ) async throws -> PushPlan? {
            let decoder = JSONDecoder()
            // The touched rows are read for every mutation above the last id read on this very snapshot:
            // a few extra keys for a replay cost nothing.
            let keys = Array(Set(request.mutations.map { EntityKey(entity: $0.entity, id: $0.entityId) }))
            var device: (head: Int64, last: Int64, digest: String, keyId: String)?
            var stored: [EntityKey: SyncState] = [:]
            var open: [EntityKey: SyncState] = [:]
            let rows = try await connection.execute(
                PostgresStatements.PushRead(
                    userId: userId, deviceId: deviceId.uuidString, entities: keys.map(\.entity),
                    ids: keys.map(\.id)), logger: logger)
            for try await (kind, head, last, entity, id, text) in rows {
                switch kind {
                case 0: device = (head, last, text, entity)
                case 1: stored[EntityKey(entity: entity, id: id)] = try StoredState.state(text, decoder: decoder)
                default: open[EntityKey(entity: entity, id: id)] = try StoredState.state(text, decoder: decoder)
                }
            }
            guard let device else { throw SyncServerError.unauthorized }
            try MutationDigest.checkReplay(request.mutations, lastMutationId: device.last, lastDigest: device.digest)
            // Rows only replays touch are not the plan's business (it ignores their mutations).
            let fresh = Set(request.mutations.filter { $0.id > device.last }.map { EntityKey(entity: $0.entity, id: $0.entityId) })
            stored = stored.filter { fresh.contains($0.key) }
            let plan = try PushPlan.make(
                schemaVersion: request.schemaVersion, mutations: request.mutations, lastMutationId: device.last, head: device.head,
                stored: stored, openSessions: open, now: now, sealedKey: device.keyId.isEmpty ? nil : device.keyId)
            let digest = MutationDigest.of(request.mutations.first { $0.id == plan.lastMutationId }) ?? device.digest
            let write = PostgresStatements.PushWrite(
                userId: userId, deviceId: deviceId.uuidString, head: device.head, newHead: plan.head,
                lastMutationId: device.last, newLastMutationId: plan.lastMutationId, digest: digest,
                writes: plan.writes, states: try plan.writes.map { try StoredState.text($0.state) },
                channel: Self.channel, writtenAt: now.groveMillis, keyId: device.keyId)
            let applied = try await connection.execute(write, logger: logger).all().first ?? 0
            return applied > 0 ? plan : nil
        }

        /// Push and pull refuse a revoked device or a disabled account in their own statements.
        public var checksAccessInline: Bool { true }

        public func pull(userId: Int64, deviceId: UUID, cursor: Int64, limit: Int, includeOwn: Bool) async throws -> StoredPage {
            try await checkedPull(userId: userId, deviceId: deviceId, cursor: cursor, checksum: nil, limit: limit, includeOwn: includeOwn)
        }

        /// One statement: the checks, the acknowledgement and the page in one snapshot (`Pull`).
        public func checkedPull(userId: Int64, deviceId: UUID, cursor: Int64, checksum: String?, limit: Int, includeOwn: Bool) async throws
            -> StoredPage
        {
            let statement = PostgresStatements.Pull(
                userId: userId, deviceId: deviceId.uuidString, cursor: cursor,
                excluding: includeOwn ? "" : deviceId.uuidString, limit: Int64(limit) + 1,
                checksum: cursor > 0 ? checksum ?? "" : "")
            let decoder = JSONDecoder()
            var found: (head: Int64, horizon: Int64, passed: Bool)?
            var headDigest = ""
            var changes: [SyncChange] = []
            var digests: [String] = []
            var more = false
            for try await (userHead, horizon, passed, atHead, seq, entity, id, deleted, text, digest) in try await client.execute(
                statement, logger: logger)
            {
                found = (userHead, horizon, passed)
                headDigest = atHead
                guard let seq, let entity, let id, let deleted, let text else { continue }
                guard changes.count < limit else { more = true; continue }
                changes.append(
                    SyncChange(
                        seq: seq, entity: entity, entityId: id, state: try StoredState.state(text, decoder: decoder), deleted: deleted))
                digests.append(digest)
            }
            guard let found else { throw SyncServerError.unauthorized }
            if !found.passed {
                // The same answers, in the same order, as the separate checks of other stores.
                if cursor > found.head { throw SyncServerError.historyDiverged(head: found.head) }
                if cursor > 0, cursor < found.horizon { throw SyncServerError.cursorExpired(horizon: found.horizon) }
                throw SyncServerError.historyDiverged(head: found.head)
            }
            let head = found.head
            let next = more ? (changes.last?.seq ?? cursor) : max(cursor, head)
            let checksum = next == 0 ? "" : more ? (digests.last ?? "") : headDigest
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
            for try await (entity, id, text) in try await client.query(
                """
                SELECT entity, entity_id, state FROM sync_entity WHERE user_id = \(userId)
                """, logger: logger
            ).decode((String, String, String).self) {
                result[EntityKey(entity: entity, id: id)] = try StoredState.state(text, decoder: decoder)
            }
            return result
        }

        public func pruneTombstones(userId: Int64, olderThan: Date, devicesSeenSince: Date) async throws -> Int {
            let logger = logger
            let limit = HLCText.stamp(olderThan)
            return try await client.transaction(logger: logger) { connection -> Int in
                var pulledPast: Int64 = 0
                for try await value in try await connection.query(
                    """
                    SELECT COALESCE(min(acked_cursor), 0) FROM sync_device
                    WHERE user_id = \(userId) AND NOT revoked AND COALESCE(last_seen, 0) >= \(devicesSeenSince.groveMillis)
                    """, logger: logger
                ).decode(Int64.self) { pulledPast = value }
                var removed = 0
                for try await _ in try await connection.query(
                    """
                    DELETE FROM sync_entity WHERE user_id = \(userId) AND deleted AND seq <= \(pulledPast) AND hlc < \(limit) RETURNING seq
                    """, logger: logger
                ).decode(Int64.self) { removed += 1 }
                if removed > 0 {
                    try await connection.query(
                        "UPDATE sync_user SET horizon = GREATEST(horizon, \(pulledPast)) WHERE id = \(userId)", logger: logger)
                    try await connection.query("DELETE FROM sync_log WHERE user_id = \(userId) AND seq < \(pulledPast)", logger: logger)
                }
                return removed
            }
        }

        public func checkReady() async throws {
            _ = try await client.query("SELECT 1", logger: logger).decode(Int32.self).all()
            // Reads still work on a full disk; a push would not: not ready for a load balancer.
            if diskFull.isFull { throw SyncReadinessError.diskFull }
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
