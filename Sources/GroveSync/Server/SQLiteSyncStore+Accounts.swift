import Foundation
import GRDB
import GroveCore
import GroveStore

/// Accounts on SQLite: users and their devices (push and pull are in `SQLiteSyncStore.swift`).
extension SQLiteSyncStore {
    // MARK: Users

    public func createUser(name: String, passwordHash: String, now: Date) async throws -> SyncUser {
        try await writer.write { db in
            guard try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM sync_user WHERE name = ?"), arguments: [name]) != true else {
                throw SyncServerError.userExists(name)
            }
            try db.execute(
                sql: "INSERT INTO sync_user (name, password_hash, created_at) VALUES (?, ?, ?)",
                arguments: [name, passwordHash, now.groveMillis])
            return SyncUser(id: db.lastInsertedRowID, name: name, passwordHash: passwordHash, disabled: false, createdAt: now)
        }
    }

    public func user(named name: String) async throws -> SyncUser? {
        try await writer.snapshotRead { db in try db.cachedRow("SELECT * FROM sync_user WHERE name = ?", [name]).map(Self.user) }
    }

    public func users() async throws -> [SyncUser] {
        try await writer.snapshotRead { db in try db.cachedRows("SELECT * FROM sync_user ORDER BY name").map(Self.user) }
    }

    public func setUser(named name: String, disabled: Bool) async throws -> Bool {
        try await writer.write { db in
            try db.cachedExecute("UPDATE sync_user SET disabled = ? WHERE name = ?", [disabled, name])
            return db.changesCount > 0
        }
    }

    // MARK: Keys

    public func keyEnvelope(userId: Int64) async throws -> (keyId: String, envelope: String)? {
        try await writer.snapshotRead { db in
            guard let row = try db.cachedRow("SELECT key_id, key_envelope FROM sync_user WHERE id = ?", [userId]),
                let keyId = row["key_id"] as String?, let envelope = row["key_envelope"] as String?
            else { return nil }
            return (keyId, envelope)
        }
    }

    public func setKeyEnvelope(userId: Int64, keyId: String, envelope: String, expected: String?, passwordHash: String?) async throws
        -> String?
    {
        try await writer.write { db in
            let current = try String.fetchOne(db.cachedStatement(sql: "SELECT key_id FROM sync_user WHERE id = ?"), arguments: [userId])
            guard current == expected else { return current }
            try db.cachedExecute("UPDATE sync_user SET key_id = ?, key_envelope = ? WHERE id = ?", [keyId, envelope, userId])
            if let passwordHash { try db.cachedExecute("UPDATE sync_user SET password_hash = ? WHERE id = ?", [passwordHash, userId]) }
            // Encrypted from now on: the plain states kept for restore points go (SYNC.md "Private sync").
            if expected == nil { try db.cachedExecute("DELETE FROM sync_history WHERE user_id = ?", [userId]) }
            return keyId
        }
    }

    static func user(_ row: Row) -> SyncUser {
        SyncUser(
            id: row["id"], name: row["name"], passwordHash: row["password_hash"], disabled: row["disabled"],
            createdAt: Date(groveMillis: row["created_at"]))
    }

    // MARK: Devices

    public func registerDevice(id: UUID, userId: Int64, name: String, tokenPrefix: String, tokenHash: String, parent: UUID?, now: Date)
        async throws
    {
        try await writer.write { db in
            try db.execute(
                sql: """
                    INSERT INTO sync_device (id, user_id, name, token_prefix, token_hash, created_at, last_seen, parent_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [id.uuidString, userId, name, tokenPrefix, tokenHash, now.groveMillis, now.groveMillis, parent?.uuidString])
        }
    }

    public func reclaimDevice(id: UUID, userId: Int64, name: String, tokenPrefix: String, tokenHash: String, now: Date) async throws
        -> Bool
    {
        try await writer.write { db in
            try db.execute(
                sql: """
                    INSERT INTO sync_device (id, user_id, name, token_prefix, token_hash, created_at, last_seen, reclaimed_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
                    """,
                arguments: [id.uuidString, userId, name, tokenPrefix, tokenHash, now.groveMillis, now.groveMillis, now.groveMillis])
            return db.changesCount > 0
        }
    }

    public func serverSecret(candidate: Data) async throws -> Data {
        try await writer.write { db in
            try db.cachedExecute("INSERT INTO sync_meta (name, value) VALUES ('device-tokens', ?) ON CONFLICT DO NOTHING", [candidate])
            return try Data.fetchOne(db.cachedStatement(sql: "SELECT value FROM sync_meta WHERE name = 'device-tokens'")) ?? candidate
        }
    }

    public func device(tokenPrefix: String) async throws -> (StoredDevice, SyncUser)? {
        try await writer.snapshotRead { db in
            guard
                let row = try db.cachedRow(
                    """
                    SELECT d.*, u.name AS user_name, u.password_hash, u.disabled, u.created_at AS user_created_at
                    FROM sync_device d JOIN sync_user u ON u.id = d.user_id WHERE d.token_prefix = ?
                    """, [tokenPrefix]), let id = UUID(uuidString: row["id"])
            else { return nil }
            let device = StoredDevice(
                id: id, userId: row["user_id"], name: row["name"], tokenHash: row["token_hash"],
                lastMutationId: row["last_mutation_id"], lastSeen: (row["last_seen"] as Int64?).map(Date.init(groveMillis:)),
                revoked: row["revoked"])
            let user = SyncUser(
                id: row["user_id"], name: row["user_name"], passwordHash: row["password_hash"], disabled: row["disabled"],
                createdAt: Date(groveMillis: row["user_created_at"]))
            return (device, user)
        }
    }

    public func devices(userId: Int64) async throws -> [DeviceInfo] {
        try await writer.snapshotRead { db in
            try db.cachedRows("SELECT * FROM sync_device WHERE user_id = ? ORDER BY created_at, id", [userId]).compactMap { row in
                guard let id = UUID(uuidString: row["id"]) else { return nil }
                return DeviceInfo(
                    deviceId: id, name: row["name"], createdAt: Date(groveMillis: row["created_at"]),
                    lastSeen: (row["last_seen"] as Int64?).map(Date.init(groveMillis:)), lastMutationId: row["last_mutation_id"],
                    revoked: row["revoked"], parentId: (row["parent_id"] as String?).flatMap(UUID.init(uuidString:)),
                    reclaimedAt: (row["reclaimed_at"] as Int64?).map(Date.init(groveMillis:)))
            }
        }
    }

    public func revokeDevice(_ id: UUID, userId: Int64) async throws -> [UUID] {
        try await writer.write { db in
            let ids = try String.fetchAll(
                db.cachedStatement(
                    sql: """
                        WITH RECURSIVE lineage (id) AS (
                            SELECT id FROM sync_device WHERE id = ? AND user_id = ?
                            UNION SELECT d.id FROM sync_device d JOIN lineage l ON d.parent_id = l.id
                        )
                        SELECT id FROM lineage
                        """), arguments: [id.uuidString, userId])
            for device in ids { try db.cachedExecute("UPDATE sync_device SET revoked = 1 WHERE id = ?", [device]) }
            return ids.compactMap(UUID.init(uuidString:))
        }
    }

    public func touchDevice(_ id: UUID, now: Date) async throws {
        try await writer.write { db in
            try db.cachedExecute("UPDATE sync_device SET last_seen = ? WHERE id = ?", [now.groveMillis, id.uuidString])
        }
    }
}
