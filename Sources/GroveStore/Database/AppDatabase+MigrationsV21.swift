import GRDB

extension AppDatabase {
    /// The migrations from v21 on: rules finer than a site, blocks on a schedule, the gate's
    /// integrity and the forest's day order. Shipped migrations are never edited: add a new one.
    static func registerPauseRulesAndForest(_ migrator: inout DatabaseMigrator) {
        // Rules finer than a site: the paths an app gates while the rest of its site opens freely,
        // one per line (`/shorts`); NULL gates the whole site.
        migrator.registerMigration("v21-gated-paths") { db in
            try db.execute(
                sql: """
                    ALTER TABLE social_app ADD COLUMN gated_paths TEXT
                        CHECK (gated_paths IS NULL OR (gated_paths GLOB '/?*' AND length(gated_paths) <= 4100));
                    """)
        }
        // Blocks on a schedule (`mon-fri 09:00-12:00`, strict or not), and the pauses that went
        // through one with the week's emergency pass; the index finds a pause's next try at the
        // same app (a pause that only delayed a visit); and the apps a growing tree lets through
        // (`*`, or focus tags one per line).
        migrator.registerMigration("v22-app-blocks") { db in
            try db.execute(
                sql: """
                    ALTER TABLE social_app ADD COLUMN block_schedule TEXT
                        CHECK (block_schedule IS NULL OR length(block_schedule) BETWEEN 1 AND 500);
                    ALTER TABLE social_app ADD COLUMN block_strict INTEGER CHECK (block_strict IS NULL OR block_strict IN (0, 1));
                    ALTER TABLE gateway_session ADD COLUMN emergency_pass INTEGER CHECK (emergency_pass IS NULL OR emergency_pass = 1);
                    CREATE INDEX gateway_session_app_start ON gateway_session (app_id, start_timestamp);
                    ALTER TABLE social_app ADD COLUMN focus_allowed TEXT
                        CHECK (focus_allowed IS NULL OR length(focus_allowed) BETWEEN 1 AND 500);
                    """)
        }
        // The gate's own integrity: a pause opened by letting a tree wither, the visit after Proceed
        // as the browser extension measured it (seconds on the site, visits its grace window let
        // through), and the gates loosened (switched off, a block removed or made not strict).
        migrator.registerMigration("v23-gate-integrity") { db in
            try db.execute(
                sql: """
                    ALTER TABLE gateway_session ADD COLUMN withered_tree INTEGER CHECK (withered_tree IS NULL OR withered_tree = 1);
                    ALTER TABLE gateway_session ADD COLUMN visit_seconds INTEGER
                        CHECK (visit_seconds IS NULL OR visit_seconds BETWEEN 0 AND 86400);
                    ALTER TABLE gateway_session ADD COLUMN grace_visits INTEGER
                        CHECK (grace_visits IS NULL OR grace_visits BETWEEN 0 AND 10000);
                    CREATE TABLE gate_change (
                        id TEXT PRIMARY KEY NOT NULL,
                        app_id TEXT NOT NULL REFERENCES social_app (id) ON DELETE CASCADE,
                        kind TEXT NOT NULL CHECK (kind IN ('gate_off', 'block_off', 'strict_off')),
                        timestamp INTEGER NOT NULL,
                        time_zone TEXT NOT NULL CHECK (time_zone <> ''),
                        local_day TEXT NOT NULL CHECK (local_day GLOB \(day))
                    ) STRICT;
                    CREATE INDEX gate_change_day ON gate_change (local_day);
                    """)
        }
        // A day's newest trees in one range (the forest draws at most `ForestWindow.treesDrawnPerDay`
        // a day); it also answers every lookup by end_day alone, so that index goes.
        migrator.registerMigration("v24-forest-day-order") { db in
            try db.execute(
                sql: """
                    CREATE INDEX focus_session_day_end ON focus_session (end_day, end_time DESC, id DESC);
                    DROP INDEX focus_session_end_day;
                    """)
        }
        // An encrypted account's id key (`KeyedID`): ids that would say something to the server (a
        // period, an imported session's start) are keyed with it on every device of the account.
        migrator.registerMigration("v25-keyed-ids") { db in
            try db.execute(sql: "ALTER TABLE sync_state ADD COLUMN id_key TEXT")
        }
        // Encrypted by default (SYNC.md "Private sync"): a device linked to a new account without a
        // passphrase sends nothing until the account is encrypted, or the person chose plain.
        migrator.registerMigration("v26-awaiting-key") { db in
            try db.execute(sql: "ALTER TABLE sync_state ADD COLUMN awaiting_key INTEGER NOT NULL DEFAULT 0")
        }
        // A restore point made current (`AccountRestore`), synced: every device learns of it once.
        migrator.registerMigration("v27-account-restore") { db in
            try db.execute(
                sql: """
                    CREATE TABLE account_restore (
                        id TEXT PRIMARY KEY NOT NULL,
                        as_of INTEGER NOT NULL CHECK (as_of >= 0),
                        applied_at INTEGER NOT NULL CHECK (applied_at >= 0),
                        device_name TEXT NOT NULL CHECK (length(device_name) BETWEEN 1 AND 100),
                        rows_changed INTEGER NOT NULL CHECK (rows_changed >= 0)
                    ) STRICT
                    """)
        }
        // The id of the key this device holds, for every face's status (the key stays in its file).
        migrator.registerMigration("v28-held-key-id") { db in
            try db.execute(sql: "ALTER TABLE sync_state ADD COLUMN key_id TEXT")
        }
        // A page of intentions, newest first, is one index range (`IntentionsRoom.page`).
        migrator.registerMigration("v29-intention-newest") { db in
            try db.execute(sql: "CREATE INDEX intention_newest ON intention (date DESC, updated_at DESC, id DESC)")
        }
        migrator.registerMigration("v30-focus-runs") { db in try db.execute(sql: AppDatabase.v30FocusRuns) }
        // The latest key envelope this device saw the server keep (`KeyEnvelope.keptAt`), and whether
        // the server now holds an older one: restored from a backup, the passphrase and recovery code
        // replaced since open the account again, and every face says so until they are set again.
        migrator.registerMigration("v31-keys-kept-at") { db in
            try db.execute(
                sql: """
                    ALTER TABLE sync_state ADD COLUMN keys_kept_at INTEGER;
                    ALTER TABLE sync_state ADD COLUMN keys_behind INTEGER NOT NULL DEFAULT 0;
                    """)
        }
        // The account's key id as the server last named it: a device still holding a replaced key
        // (`grove sync new-key` on another device) shows that it must be unlocked once.
        migrator.registerMigration("v32-server-key-id") { db in
            try db.execute(sql: "ALTER TABLE sync_state ADD COLUMN server_key_id TEXT")
        }
    }
}
