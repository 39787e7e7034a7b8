#if Postgres
    import GroveCore
    import PostgresNIO

    /// The statements every request runs, prepared once per connection: PostgreSQL parses and plans
    /// them once instead of on every push and every authentication.
    enum PostgresStatements {
        /// The device a token's prefix names, with its user (every authenticated request).
        struct DeviceByPrefix: PostgresPreparedStatement {
            typealias Row = (String, Int64, String, String, Int64, Int64?, Bool, String, String, Bool, Int64)
            static let sql = """
                SELECT d.id, d.user_id, d.name, d.token_hash, d.last_mutation_id, d.last_seen, d.revoked,
                       u.name, u.password_hash, u.disabled, u.created_at
                FROM sync_device d JOIN sync_user u ON u.id = d.user_id WHERE d.token_prefix = $1
                """
            var prefix: String

            func makeBindings() throws -> PostgresBindings {
                var bindings = PostgresBindings(capacity: 1)
                bindings.append(prefix)
                return bindings
            }

            func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
        }

        /// A push's first read: the user's row locked (orders this user's pushes), the device's last mutation.
        struct LockForPush: PostgresPreparedStatement {
            typealias Row = (Int64, Int64, String)
            static let sql = """
                SELECT u.head, d.last_mutation_id, d.last_mutation_digest FROM sync_user u JOIN sync_device d ON d.user_id = u.id
                WHERE u.id = $1 AND d.id = $2 AND NOT d.revoked AND NOT u.disabled FOR UPDATE OF u
                """
            var userId: Int64
            var deviceId: String

            func makeBindings() throws -> PostgresBindings {
                var bindings = PostgresBindings(capacity: 2)
                bindings.append(userId)
                bindings.append(deviceId)
                return bindings
            }

            func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
        }

        /// A push's read, one snapshot: the user's head and the device's last mutation (kind 0), the rows
        /// the push touches (kind 1) and the user's open focus sessions (kind 2). No lock: the write that
        /// follows applies only if the head is still the one read here (`PushWrite`).
        struct PushRead: PostgresPreparedStatement {
            /// (kind, head, last mutation id, entity or — for kind 0 — the account's key id ("" when plain),
            /// entity id, state or — for kind 0 — last mutation digest)
            typealias Row = (Int16, Int64, Int64, String, String, String)
            static let sql = """
                SELECT 0::int2, u.head, d.last_mutation_id, coalesce(u.key_id, ''), '', d.last_mutation_digest
                FROM sync_user u JOIN sync_device d ON d.user_id = u.id
                WHERE u.id = $1 AND d.id = $2 AND NOT d.revoked AND NOT u.disabled
                UNION ALL
                SELECT 1::int2, 0, 0, e.entity, e.entity_id, e.state FROM sync_entity e
                JOIN unnest($3::text[], $4::text[]) AS t (entity, entity_id) ON e.entity = t.entity AND e.entity_id = t.entity_id
                WHERE e.user_id = $1
                UNION ALL
                SELECT 2::int2, 0, 0, entity, entity_id, state FROM sync_entity WHERE user_id = $1 AND entity = 'focusSession' AND open
                """
            var userId: Int64
            var deviceId: String
            var entities: [String]
            var ids: [String]

            func makeBindings() throws -> PostgresBindings {
                var bindings = PostgresBindings(capacity: 4)
                bindings.append(userId)
                bindings.append(deviceId)
                bindings.append(entities)
                bindings.append(ids)
                return bindings
            }

            func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
        }

        /// A push's write, one statement and so one transaction: the user's head moves from the head read
        /// to the new one — and only then (the row is locked and re-checked; another push of this user in
        /// between leaves it unchanged and this statement writes nothing) are the device, the rows and the
        /// history written and the other instances notified, on commit. Returns 1 if it applied, else 0.
        struct PushWrite: PostgresPreparedStatement {
            typealias Row = Int64
            static let sql = """
                WITH moved AS (
                    UPDATE sync_user SET head = $4 WHERE id = $1 AND head = $3 AND coalesce(key_id, '') = $21 RETURNING id
                ), device AS (
                    UPDATE sync_device SET last_mutation_id = $6, last_mutation_digest = $7
                    WHERE id = $2 AND user_id = $1 AND last_mutation_id = $5 AND EXISTS (SELECT 1 FROM moved) RETURNING id
                ), entities AS (
                    INSERT INTO sync_entity (user_id, entity, entity_id, seq, hlc, deleted, open, writer, echo, state, written_at)
                    SELECT $1, w.entity, w.entity_id, w.seq, NULLIF(w.hlc, ''), w.deleted, w.open, $2, w.echo, w.state, $20
                    FROM unnest($8::text[], $9::text[], $10::bigint[], $11::text[], $12::boolean[], $13::boolean[], $14::boolean[], $15::text[])
                         AS w (entity, entity_id, seq, hlc, deleted, open, echo, state)
                    WHERE EXISTS (SELECT 1 FROM device)
                    ON CONFLICT (user_id, entity, entity_id) DO UPDATE SET seq = excluded.seq, hlc = excluded.hlc, deleted = excluded.deleted,
                        open = excluded.open, writer = excluded.writer, echo = excluded.echo, state = excluded.state,
                        written_at = excluded.written_at
                ), history AS (
                    INSERT INTO sync_log (user_id, seq, digest)
                    SELECT $1, l.seq, l.digest FROM unnest($10::bigint[], $16::text[]) AS l (seq, digest)
                    WHERE EXISTS (SELECT 1 FROM device)
                    ON CONFLICT (user_id, seq) DO UPDATE SET digest = excluded.digest
                ), notified AS (
                    SELECT pg_notify($17, $18) FROM device WHERE $19
                )
                SELECT (SELECT count(*) FROM device) + 0 * (SELECT count(*) FROM notified)
                """
            var userId: Int64
            var deviceId: String
            var head: Int64
            var newHead: Int64
            var lastMutationId: Int64
            var newLastMutationId: Int64
            var digest: String
            var writes: [EntityWrite]
            var states: [String]
            var channel: String
            /// When the rows are written (a restore point's instant).
            var writtenAt: Int64
            /// The account's key id the push was planned under ("" when plain): an account encrypted
            /// meanwhile takes nothing planned as plain.
            var keyId: String

            func makeBindings() throws -> PostgresBindings {
                var bindings = PostgresBindings(capacity: 21)
                bindings.append(userId)
                bindings.append(deviceId)
                bindings.append(head)
                bindings.append(newHead)
                bindings.append(lastMutationId)
                bindings.append(newLastMutationId)
                bindings.append(digest)
                bindings.append(writes.map(\.key.entity))
                bindings.append(writes.map(\.key.id))
                bindings.append(writes.map(\.seq))
                bindings.append(writes.map { $0.state.latest?.description ?? "" })
                bindings.append(writes.map(\.deleted))
                bindings.append(writes.map(\.open))
                bindings.append(writes.map(\.echoesWriter))
                bindings.append(states)
                bindings.append(writes.map(\.digest))
                bindings.append(channel)
                bindings.append("\(userId):\(newHead)")
                bindings.append(!writes.isEmpty)
                bindings.append(writtenAt)
                bindings.append(keyId)
                return bindings
            }

            func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
        }

        /// A page of changes in one round trip and one snapshot, the cursor checked in it: the head, the
        /// horizon and whether the cursor passed (not past the head, not below the horizon, `checksum` —
        /// when given — what sits at it); the cursor acknowledged only if it passed; the digest at
        /// max(head, cursor); and, if it passed, up to `limit` rows after the cursor each with its digest.
        /// One row comes back for a device that may pull (null row columns when the page is empty), none
        /// for a revoked device or a disabled account.
        struct Pull: PostgresPreparedStatement {
            typealias Row = (Int64, Int64, Bool, String, Int64?, String?, String?, Bool?, String?, String)
            static let sql = """
                WITH u AS (
                    SELECT u.id, u.head, u.horizon FROM sync_user u JOIN sync_device d ON d.user_id = u.id
                    WHERE u.id = $1 AND d.id = $2 AND NOT d.revoked AND NOT u.disabled
                ), ok AS (
                    SELECT $3 <= u.head AND ($3 = 0 OR $3 >= u.horizon)
                           AND ($6 = '' OR $3 = 0 OR EXISTS (SELECT 1 FROM sync_log WHERE user_id = $1 AND seq = $3 AND digest = $6)) AS passed
                    FROM u
                ), acked AS (
                    UPDATE sync_device SET acked_cursor = GREATEST(acked_cursor, $3)
                    WHERE id = $2 AND user_id = $1 AND (SELECT passed FROM ok)
                )
                SELECT u.head, u.horizon, ok.passed, COALESCE(hl.digest, ''), p.seq, p.entity, p.entity_id, p.deleted, p.state, COALESCE(pl.digest, '')
                FROM u CROSS JOIN ok
                LEFT JOIN sync_log hl ON hl.user_id = u.id AND hl.seq = GREATEST(u.head, $3)
                LEFT JOIN LATERAL (
                    SELECT seq, entity, entity_id, deleted, state FROM sync_entity
                    WHERE user_id = $1 AND seq > $3 AND NOT (echo AND writer = $4) AND ok.passed ORDER BY seq LIMIT $5
                ) p ON true
                LEFT JOIN sync_log pl ON pl.user_id = u.id AND pl.seq = p.seq
                ORDER BY p.seq
                """
            var userId: Int64
            var deviceId: String
            var cursor: Int64
            /// The device whose own echoes are left out ("" to include them).
            var excluding: String
            var limit: Int64
            /// What the device saw at `cursor` ("": not checked).
            var checksum: String

            func makeBindings() throws -> PostgresBindings {
                var bindings = PostgresBindings(capacity: 6)
                bindings.append(userId)
                bindings.append(deviceId)
                bindings.append(cursor)
                bindings.append(excluding)
                bindings.append(limit)
                bindings.append(checksum)
                return bindings
            }

            func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
        }
    }
#endif
