#if Postgres
    import Foundation
    import Logging
    import PostgresNIO

    /// The PostgreSQL schema as named migrations in plain SQL, never edited once shipped.
    ///
    /// `migrate` applies what is missing in one transaction under `pg_advisory_xact_lock`, so that
    /// instances starting at once take turns (the second finds the work done); a database that holds a
    /// migration this binary does not know was written by a newer Grove and is refused.
    public enum PostgresSyncSchema {
        /// The advisory lock's key ("grove" in ASCII).
        static let lockKey: Int64 = 0x67_72_6F_76_65

        /// Name and statements, in order. Text that is compared (clocks, ids) uses the "C" collation:
        /// bytewise, as SQLite and every device compare it.
        static let migrations: [(name: String, statements: [String])] = [
            (
                "sync-v1",
                [
                    """
                    CREATE TABLE sync_user (
                        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                        name TEXT NOT NULL UNIQUE,
                        password_hash TEXT NOT NULL,
                        disabled BOOLEAN NOT NULL DEFAULT false,
                        created_at BIGINT NOT NULL,
                        head BIGINT NOT NULL DEFAULT 0,
                        horizon BIGINT NOT NULL DEFAULT 0
                    )
                    """,
                    """
                    CREATE TABLE sync_device (
                        id TEXT PRIMARY KEY,
                        user_id BIGINT NOT NULL REFERENCES sync_user (id),
                        name TEXT NOT NULL,
                        token_prefix TEXT NOT NULL UNIQUE,
                        token_hash TEXT NOT NULL,
                        last_mutation_id BIGINT NOT NULL DEFAULT 0,
                        last_mutation_digest TEXT NOT NULL DEFAULT '',
                        acked_cursor BIGINT NOT NULL DEFAULT 0,
                        created_at BIGINT NOT NULL,
                        last_seen BIGINT,
                        revoked BOOLEAN NOT NULL DEFAULT false
                    )
                    """,
                    "CREATE INDEX sync_device_user ON sync_device (user_id)",
                    """
                    CREATE TABLE sync_entity (
                        user_id BIGINT NOT NULL REFERENCES sync_user (id),
                        entity TEXT COLLATE "C" NOT NULL,
                        entity_id TEXT COLLATE "C" NOT NULL,
                        seq BIGINT NOT NULL,
                        hlc TEXT COLLATE "C",
                        deleted BOOLEAN NOT NULL,
                        open BOOLEAN NOT NULL,
                        writer TEXT NOT NULL,
                        echo BOOLEAN NOT NULL,
                        state TEXT NOT NULL,
                        PRIMARY KEY (user_id, entity, entity_id)
                    )
                    """,
                    "CREATE UNIQUE INDEX sync_entity_seq ON sync_entity (user_id, seq)",
                    "CREATE INDEX sync_entity_open ON sync_entity (user_id, entity) WHERE open",
                    """
                    CREATE TABLE sync_log (
                        user_id BIGINT NOT NULL REFERENCES sync_user (id),
                        seq BIGINT NOT NULL,
                        digest TEXT NOT NULL,
                        PRIMARY KEY (user_id, seq)
                    )
                    """,
                ]
            ),
            // Forks remember the device they came from, so that revoking it revokes them too.
            (
                "sync-v2",
                [
                    "ALTER TABLE sync_device ADD COLUMN parent_id TEXT",
                    "CREATE INDEX sync_device_parent ON sync_device (parent_id) WHERE parent_id IS NOT NULL",
                ]
            ),
            // The key device tokens are made under (kept in the database, so that a restored backup
            // can still check the tokens it issued) and the mark of a device taken back after a
            // restore; and restore points: every state a push replaces is kept (`sync_history`, pruned
            // after the server's keep time) with when it was written and replaced, opaque like every
            // state. A database that held rows already reaches back to this migration only.
            (
                "sync-v4-keys-history",
                [
                    "CREATE TABLE sync_meta (name TEXT PRIMARY KEY, value BYTEA NOT NULL)",
                    """
                    INSERT INTO sync_meta (name, value)
                    SELECT 'history-since', convert_to((extract(epoch FROM clock_timestamp()) * 1000)::bigint::text, 'UTF8')
                    WHERE EXISTS (SELECT 1 FROM sync_entity)
                    """,
                    "ALTER TABLE sync_device ADD COLUMN reclaimed_at BIGINT",
                    "ALTER TABLE sync_entity ADD COLUMN written_at BIGINT",
                    """
                    CREATE TABLE sync_history (
                        user_id BIGINT NOT NULL,
                        seq BIGINT NOT NULL,
                        entity TEXT COLLATE "C" NOT NULL,
                        entity_id TEXT COLLATE "C" NOT NULL,
                        written_at BIGINT NOT NULL,
                        superseded_at BIGINT NOT NULL,
                        deleted BOOLEAN NOT NULL,
                        state TEXT NOT NULL,
                        PRIMARY KEY (user_id, seq)
                    )
                    """,
                    "CREATE INDEX sync_history_entity ON sync_history (user_id, entity, entity_id, written_at)",
                    "CREATE INDEX sync_history_superseded ON sync_history (superseded_at)",
                    """
                    CREATE FUNCTION sync_entity_history() RETURNS trigger LANGUAGE plpgsql AS $$
                    BEGIN
                        INSERT INTO sync_history (user_id, seq, entity, entity_id, written_at, superseded_at, deleted, state)
                        VALUES (OLD.user_id, OLD.seq, OLD.entity, OLD.entity_id, coalesce(OLD.written_at, 0), coalesce(NEW.written_at, 0),
                            OLD.deleted, OLD.state)
                        ON CONFLICT DO NOTHING;
                        RETURN NULL;
                    END
                    $$
                    """,
                    """
                    CREATE TRIGGER sync_entity_history AFTER UPDATE OF seq ON sync_entity
                    FOR EACH ROW WHEN (OLD.seq IS DISTINCT FROM NEW.seq) EXECUTE FUNCTION sync_entity_history()
                    """,
                ]
            ),
            // End-to-end encryption: an account's key id and its wrapped key, opaque here; once an
            // account is encrypted no plain state is kept as history.
            (
                "sync-v5-sealed",
                [
                    "ALTER TABLE sync_user ADD COLUMN key_id TEXT",
                    "ALTER TABLE sync_user ADD COLUMN key_envelope TEXT",
                    """
                    CREATE OR REPLACE FUNCTION sync_entity_history() RETURNS trigger LANGUAGE plpgsql AS $$
                    BEGIN
                        IF strpos(OLD.state, '"fields":{"@') = 0 AND EXISTS (
                            SELECT 1 FROM sync_user u WHERE u.id = OLD.user_id AND u.key_id IS NOT NULL) THEN
                            RETURN NULL;
                        END IF;
                        INSERT INTO sync_history (user_id, seq, entity, entity_id, written_at, superseded_at, deleted, state)
                        VALUES (OLD.user_id, OLD.seq, OLD.entity, OLD.entity_id, coalesce(OLD.written_at, 0), coalesce(NEW.written_at, 0),
                            OLD.deleted, OLD.state)
                        ON CONFLICT DO NOTHING;
                        RETURN NULL;
                    END
                    $$
                    """,
                ]
            ),
        ]

        /// The migration written in Swift, after the SQL ones.
        static let namesMigration = "sync-v3-names"

        /// Brings the database to this binary's schema (see the type's comment).
        public static func migrate(_ client: PostgresClient, logger: Logger) async throws {
            try await client.transaction(logger: logger) { connection in
                try await connection.query("SELECT pg_advisory_xact_lock(\(lockKey))", logger: logger)
                try await connection.query(
                    """
                    CREATE TABLE IF NOT EXISTS grove_sync_migration (name TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())
                    """, logger: logger)
                let applied = Set(
                    try await connection.query("SELECT name FROM grove_sync_migration", logger: logger).decode(String.self).all())
                let known = Set(migrations.map(\.name) + [namesMigration])
                let unknown = applied.subtracting(known)
                guard unknown.isEmpty else { throw SyncStoreSchemaError.newerSchema(unknown.sorted()) }
                for migration in migrations where !applied.contains(migration.name) {
                    for statement in migration.statements {
                        try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                    }
                    try await connection.query("INSERT INTO grove_sync_migration (name) VALUES (\(migration.name))", logger: logger)
                    logger.info("Applied migration", metadata: ["name": "\(migration.name)"])
                }
                // One person, one account: names made before they were canonical take their canonical
                // form (in Swift: the form is SyncUserName's, not the database's collation).
                if !applied.contains(namesMigration) {
                    var users: [(id: Int64, name: String)] = []
                    for try await (id, name) in try await connection.query("SELECT id, name FROM sync_user", logger: logger)
                        .decode((Int64, String).self)
                    {
                        users.append((id, name))
                    }
                    for rename in SyncUserName.renames(users) {
                        try await connection.query("UPDATE sync_user SET name = \(rename.name) WHERE id = \(rename.id)", logger: logger)
                    }
                    try await connection.query("INSERT INTO grove_sync_migration (name) VALUES (\(namesMigration))", logger: logger)
                }
            }
        }
    }
#endif

/// A server database the running Grove cannot use.
public enum SyncStoreSchemaError: Error, CustomStringConvertible, Equatable {
    /// The database holds migrations this binary does not know: a newer Grove wrote it.
    case newerSchema([String])

    public var description: String {
        switch self {
        case .newerSchema(let names):
            "The sync database was migrated by a newer Grove (unknown migrations: \(names.joined(separator: ", "))); run that version or newer"
        }
    }
}
