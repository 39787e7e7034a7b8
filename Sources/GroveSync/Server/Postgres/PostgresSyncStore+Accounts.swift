#if Postgres
    import Foundation
    import GroveCore
    import Logging
    import PostgresNIO

    /// Accounts on PostgreSQL: users and their devices (the store's push and pull are in `PostgresSyncStore.swift`).
    extension PostgresSyncStore {
        // MARK: Users

        public func createUser(name: String, passwordHash: String, now: Date) async throws -> SyncUser {
            let rows = try await client.query(
                """
                INSERT INTO sync_user (name, password_hash, created_at) VALUES (\(name), \(passwordHash), \(now.groveMillis))
                ON CONFLICT (name) DO NOTHING RETURNING id
                """, logger: logger)
            guard let id = try await rows.decode(Int64.self).all().first else { throw SyncServerError.userExists(name) }
            return SyncUser(id: id, name: name, passwordHash: passwordHash, disabled: false, createdAt: now)
        }

        public func user(named name: String) async throws -> SyncUser? {
            try await users(
                client.query("SELECT id, name, password_hash, disabled, created_at FROM sync_user WHERE name = \(name)", logger: logger)
            ).first
        }

        public func users() async throws -> [SyncUser] {
            try await users(
                client.query("SELECT id, name, password_hash, disabled, created_at FROM sync_user ORDER BY name", logger: logger))
        }

        // MARK: Keys

        public func keyEnvelope(userId: Int64) async throws -> (keyId: String, envelope: String)? {
            let rows = try await client.query(
                "SELECT key_id, key_envelope FROM sync_user WHERE id = \(userId) AND key_id IS NOT NULL", logger: logger)
            return try await rows.decode((String, String).self).all().first.map { ($0.0, $0.1) }
        }

        public func setKeyEnvelope(userId: Int64, keyId: String, envelope: String, expected: String?, passwordHash: String?) async throws
            -> String?
        {
            try await client.transaction(logger: logger) { connection -> String? in
                // The user's row is the lock (a push checks the key id it planned under in its own write).
                let current =
                    try await connection.query("SELECT key_id FROM sync_user WHERE id = \(userId) FOR UPDATE", logger: logger)
                    .decode(String?.self).all().first ?? nil
                guard current == expected else { return current }
                try await connection.query(
                    "UPDATE sync_user SET key_id = \(keyId), key_envelope = \(envelope) WHERE id = \(userId)", logger: logger)
                if let passwordHash {
                    try await connection.query("UPDATE sync_user SET password_hash = \(passwordHash) WHERE id = \(userId)", logger: logger)
                }
                if expected == nil { try await connection.query("DELETE FROM sync_history WHERE user_id = \(userId)", logger: logger) }
                return keyId
            }
        }

        func users(_ rows: PostgresRowSequence) async throws -> [SyncUser] {
            try await rows.decode((Int64, String, String, Bool, Int64).self).all().map { id, name, hash, disabled, created in
                SyncUser(id: id, name: name, passwordHash: hash, disabled: disabled, createdAt: Date(groveMillis: created))
            }
        }

        public func setUser(named name: String, disabled: Bool) async throws -> Bool {
            let rows = try await client.query(
                "UPDATE sync_user SET disabled = \(disabled) WHERE name = \(name) RETURNING id", logger: logger)
            return try await !rows.decode(Int64.self).all().isEmpty
        }

        // MARK: Devices

        public func registerDevice(id: UUID, userId: Int64, name: String, tokenPrefix: String, tokenHash: String, parent: UUID?, now: Date)
            async throws
        {
            try await client.query(
                """
                INSERT INTO sync_device (id, user_id, name, token_prefix, token_hash, created_at, last_seen, parent_id)
                VALUES (\(id.uuidString), \(userId), \(name), \(tokenPrefix), \(tokenHash), \(now.groveMillis), \(now.groveMillis), \(parent?.uuidString))
                """, logger: logger)
        }

        public func reclaimDevice(id: UUID, userId: Int64, name: String, tokenPrefix: String, tokenHash: String, now: Date)
            async throws -> Bool
        {
            let rows = try await client.query(
                """
                INSERT INTO sync_device (id, user_id, name, token_prefix, token_hash, created_at, last_seen, reclaimed_at)
                VALUES (\(id.uuidString), \(userId), \(name), \(tokenPrefix), \(tokenHash), \(now.groveMillis), \(now.groveMillis), \(now.groveMillis))
                ON CONFLICT DO NOTHING RETURNING id
                """, logger: logger)
            return try await !rows.decode(String.self).all().isEmpty
        }

        public func serverSecret(candidate: Data) async throws -> Data {
            let bytes = ByteBuffer(bytes: candidate)
            try await client.query(
                "INSERT INTO sync_meta (name, value) VALUES ('device-tokens', \(bytes)) ON CONFLICT DO NOTHING", logger: logger)
            let rows = try await client.query("SELECT value FROM sync_meta WHERE name = 'device-tokens'", logger: logger)
            guard let stored = try await rows.decode(ByteBuffer.self).all().first else { return candidate }
            return Data(stored.readableBytesView)
        }

        public func device(tokenPrefix: String) async throws -> (StoredDevice, SyncUser)? {
            let found = try await client.execute(PostgresStatements.DeviceByPrefix(prefix: tokenPrefix), logger: logger).all()
            if let (id, userId, name, tokenHash, lastMutation, lastSeen, revoked, userName, passwordHash, disabled, created) = found.first {
                guard let uuid = UUID(uuidString: id) else { return nil }
                let device = StoredDevice(
                    id: uuid, userId: userId, name: name, tokenHash: tokenHash, lastMutationId: lastMutation,
                    lastSeen: lastSeen.map(Date.init(groveMillis:)), revoked: revoked)
                return (
                    device,
                    SyncUser(
                        id: userId, name: userName, passwordHash: passwordHash, disabled: disabled, createdAt: Date(groveMillis: created))
                )
            }
            return nil
        }

        public func devices(userId: Int64) async throws -> [DeviceInfo] {
            let rows = try await client.query(
                """
                SELECT id, name, created_at, last_seen, last_mutation_id, revoked, parent_id, reclaimed_at FROM sync_device
                WHERE user_id = \(userId) ORDER BY created_at, id
                """, logger: logger)
            var devices: [DeviceInfo] = []
            for try await (id, name, created, lastSeen, lastMutation, revoked, parent, reclaimed) in rows.decode(
                (String, String, Int64, Int64?, Int64, Bool, String?, Int64?).self)
            {
                guard let uuid = UUID(uuidString: id) else { continue }
                devices.append(
                    DeviceInfo(
                        deviceId: uuid, name: name, createdAt: Date(groveMillis: created), lastSeen: lastSeen.map(Date.init(groveMillis:)),
                        lastMutationId: lastMutation, revoked: revoked, parentId: parent.flatMap(UUID.init(uuidString:)),
                        reclaimedAt: reclaimed.map(Date.init(groveMillis:))))
            }
            return devices
        }

        public func revokeDevice(_ id: UUID, userId: Int64) async throws -> [UUID] {
            let rows = try await client.query(
                """
                WITH RECURSIVE lineage (id) AS (
                    SELECT id FROM sync_device WHERE id = \(id.uuidString) AND user_id = \(userId)
                    UNION SELECT d.id FROM sync_device d JOIN lineage l ON d.parent_id = l.id
                )
                UPDATE sync_device SET revoked = true WHERE id IN (SELECT id FROM lineage) RETURNING id
                """, logger: logger)
            return try await rows.decode(String.self).all().compactMap(UUID.init(uuidString:))
        }

        public func touchDevice(_ id: UUID, now: Date) async throws {
            try await client.query("UPDATE sync_device SET last_seen = \(now.groveMillis) WHERE id = \(id.uuidString)", logger: logger)
        }
    }
#endif
