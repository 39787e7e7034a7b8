import Foundation
import GRDB

/// The server's SQLite schema.
extension SQLiteSyncStore {
    /// Named migrations, never edited once shipped.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("sync-v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE sync_user (
                        id INTEGER PRIMARY KEY,
                        name TEXT NOT NULL UNIQUE,
                        password_hash TEXT NOT NULL,
                        disabled INTEGER NOT NULL DEFAULT 0,
                        created_at INTEGER NOT NULL,
                        head INTEGER NOT NULL DEFAULT 0,
                        horizon INTEGER NOT NULL DEFAULT 0
                    ) STRICT;
                    CREATE TABLE sync_device (
                        id TEXT PRIMARY KEY NOT NULL,
                        user_id INTEGER NOT NULL REFERENCES sync_user (id),
                        name TEXT NOT NULL,
                        token_prefix TEXT NOT NULL UNIQUE,
                        token_hash TEXT NOT NULL,
                        last_mutation_id INTEGER NOT NULL DEFAULT 0,
                        last_mutation_digest TEXT NOT NULL DEFAULT '',
                        acked_cursor INTEGER NOT NULL DEFAULT 0,
                        created_at INTEGER NOT NULL,
                        last_seen INTEGER,
                        revoked INTEGER NOT NULL DEFAULT 0
                    ) STRICT;
                    CREATE INDEX sync_device_user ON sync_device (user_id);
                    CREATE TABLE sync_entity (
                        user_id INTEGER NOT NULL,
                        entity TEXT NOT NULL,
                        entity_id TEXT NOT NULL,
                        seq INTEGER NOT NULL,
                        hlc TEXT,
                        deleted INTEGER NOT NULL,
                        open INTEGER NOT NULL,
                        writer TEXT NOT NULL,
                        echo INTEGER NOT NULL,
                        state TEXT NOT NULL,
                        PRIMARY KEY (user_id, entity, entity_id)
                    ) STRICT, WITHOUT ROWID;
                    CREATE UNIQUE INDEX sync_entity_seq ON sync_entity (user_id, seq);
                    CREATE INDEX sync_entity_open ON sync_entity (user_id, entity) WHERE open = 1;
                    CREATE TABLE sync_log (
                        user_id INTEGER NOT NULL,
                        seq INTEGER NOT NULL,
                        digest TEXT NOT NULL,
                        PRIMARY KEY (user_id, seq)
                    ) STRICT, WITHOUT ROWID;
                    """)
        }
        // Forks remember the device they came from, so that revoking it revokes them too.
        migrator.registerMigration("sync-v2") { db in
            try db.execute(
                sql: """
                    ALTER TABLE sync_device ADD COLUMN parent_id TEXT;
                    CREATE INDEX sync_device_parent ON sync_device (parent_id) WHERE parent_id IS NOT NULL;
                    """)
        }
        // One person, one account: names made before they were canonical take their canonical form.
        migrator.registerMigration("sync-v3-names") { db in
            let users = try Row.fetchAll(db, sql: "SELECT id, name FROM sync_user").map {
                (id: $0["id"] as Int64, name: $0["name"] as String)
            }
            for rename in SyncUserName.renames(users) {
                try db.execute(sql: "UPDATE sync_user SET name = ? WHERE id = ?", arguments: [rename.name, rename.id])
            }
        }
        // The key device tokens are made under (kept in the database, so that a restored backup can
        // still check the tokens it issued) and the mark of a device taken back after a restore; and
        // restore points: every state a push replaces is kept (`sync_history`, pruned after the
        // server's keep time) with when it was written and replaced, opaque like every state. A
        // database that held rows already reaches back to this migration only (`history-since`).
        migrator.registerMigration("sync-v4-keys-history") { db in
            try db.execute(
                sql: """
                    CREATE TABLE sync_meta (name TEXT PRIMARY KEY NOT NULL, value BLOB NOT NULL);
                    INSERT INTO sync_meta (name, value)
                        SELECT 'history-since', CAST(CAST(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) AS TEXT) AS BLOB)
                        WHERE EXISTS (SELECT 1 FROM sync_entity);
                    ALTER TABLE sync_device ADD COLUMN reclaimed_at INTEGER;
                    ALTER TABLE sync_entity ADD COLUMN written_at INTEGER;
                    CREATE TABLE sync_history (
                        user_id INTEGER NOT NULL,
                        seq INTEGER NOT NULL,
                        entity TEXT NOT NULL,
                        entity_id TEXT NOT NULL,
                        written_at INTEGER NOT NULL,
                        superseded_at INTEGER NOT NULL,
                        deleted INTEGER NOT NULL,
                        state TEXT NOT NULL,
                        PRIMARY KEY (user_id, seq)
                    ) STRICT, WITHOUT ROWID;
                    CREATE INDEX sync_history_entity ON sync_history (user_id, entity, entity_id, written_at);
                    CREATE INDEX sync_history_superseded ON sync_history (superseded_at);
                    CREATE TRIGGER sync_entity_history AFTER UPDATE OF seq ON sync_entity WHEN OLD.seq IS NOT NEW.seq BEGIN
                        INSERT OR IGNORE INTO sync_history (user_id, seq, entity, entity_id, written_at, superseded_at, deleted, state)
                        VALUES (OLD.user_id, OLD.seq, OLD.entity, OLD.entity_id, coalesce(OLD.written_at, 0), coalesce(NEW.written_at, 0),
                            OLD.deleted, OLD.state);
                    END;
                    """)
        }
        // End-to-end encryption (SYNC.md "Private sync"): an account's key id and its wrapped key,
        // opaque here. Once an account is encrypted no plain state is kept as history: the plain
        // rows a device re-sends sealed leave no copy behind.
        migrator.registerMigration("sync-v5-sealed") { db in
            try db.execute(
                sql: """
                    ALTER TABLE sync_user ADD COLUMN key_id TEXT;
                    ALTER TABLE sync_user ADD COLUMN key_envelope TEXT;
                    DROP TRIGGER sync_entity_history;
                    CREATE TRIGGER sync_entity_history AFTER UPDATE OF seq ON sync_entity WHEN OLD.seq IS NOT NEW.seq
                        AND (OLD.state LIKE '%"fields":{"@%'
                            OR NOT EXISTS (SELECT 1 FROM sync_user u WHERE u.id = OLD.user_id AND u.key_id IS NOT NULL)) BEGIN
                        INSERT OR IGNORE INTO sync_history (user_id, seq, entity, entity_id, written_at, superseded_at, deleted, state)
                        VALUES (OLD.user_id, OLD.seq, OLD.entity, OLD.entity_id, coalesce(OLD.written_at, 0), coalesce(NEW.written_at, 0),
                            OLD.deleted, OLD.state);
                    END;
                    """)
        }
        return migrator
    }
}
