import GRDB

extension AppDatabase {
    /// "v3-sync": the device side of Grove Sync (SYNC.md "Storage").
    ///
    /// - `sync_state`: one row once the device is linked (server, device id, cursor, clock).
    /// - `sync_outbox`: one row per changed entity, written by triggers in the same transaction as the
    ///   change, whichever process made it (CLI, server, import, even the `sqlite3` shell). `dirty`
    ///   holds the changed field groups as bits; `fresh` those not yet given a clock (the writing
    ///   transaction stamps them before it commits). A sealed row has a `mutation_id` and its payload,
    ///   so that a retried push sends the same mutation again. The capture triggers exist only while
    ///   the store is linked (`SyncCapture`): a store that never syncs pays nothing for them.
    /// - `sync_clock`: the clock of each group of each synced row (bit 28: last insert, 29: delete).
    /// - `sync_applying`: holds a row only inside a transaction applying pulled changes: triggers skip
    ///   capture then (nobody else ever sees the row: it is deleted before that transaction commits).
    /// - `sync_inbox`: pulled changes waiting to be applied together (parents may come on a later page).
    static let v3Sync = """
        CREATE TABLE sync_state (
            id INTEGER PRIMARY KEY NOT NULL CHECK (id = 1),
            server_url TEXT NOT NULL,
            user_name TEXT NOT NULL,
            device_id TEXT NOT NULL,
            device_name TEXT NOT NULL,
            token_file TEXT NOT NULL,
            cursor INTEGER NOT NULL DEFAULT 0,
            cursor_checksum TEXT NOT NULL DEFAULT '',
            last_mutation_id INTEGER NOT NULL DEFAULT 0,
            acked_mutation_id INTEGER NOT NULL DEFAULT 0,
            hlc TEXT NOT NULL,
            clock_offset_ms INTEGER NOT NULL DEFAULT 0,
            store_marker TEXT NOT NULL,
            last_success INTEGER,
            last_error TEXT
        ) STRICT;
        CREATE TABLE sync_outbox (
            id INTEGER PRIMARY KEY,
            entity TEXT NOT NULL,
            entity_id TEXT NOT NULL,
            dirty INTEGER NOT NULL,
            fresh INTEGER NOT NULL,
            mutation_id INTEGER UNIQUE,
            payload TEXT
        ) STRICT;
        CREATE UNIQUE INDEX sync_outbox_pending ON sync_outbox (entity, entity_id) WHERE mutation_id IS NULL;
        CREATE INDEX sync_outbox_fresh ON sync_outbox (id) WHERE fresh <> 0;
        CREATE TABLE sync_clock (
            entity TEXT NOT NULL,
            entity_id TEXT NOT NULL,
            grp INTEGER NOT NULL,
            hlc TEXT NOT NULL,
            PRIMARY KEY (entity, entity_id, grp)
        ) STRICT, WITHOUT ROWID;
        CREATE TABLE sync_bit (bit INTEGER PRIMARY KEY NOT NULL) STRICT;
        WITH RECURSIVE bits(b) AS (SELECT 0 UNION ALL SELECT b + 1 FROM bits WHERE b < 29) INSERT INTO sync_bit SELECT b FROM bits;
        CREATE TABLE sync_applying (id INTEGER PRIMARY KEY NOT NULL) STRICT;
        -- During a pull from 0 after the server dropped old deletions: synced rows not seen again
        -- (deleted elsewhere while this device was away) are removed once the pull completes.
        CREATE TABLE sync_unseen (
            entity TEXT NOT NULL,
            entity_id TEXT NOT NULL,
            PRIMARY KEY (entity, entity_id)
        ) STRICT, WITHOUT ROWID;
        CREATE TABLE sync_inbox (
            seq INTEGER PRIMARY KEY NOT NULL,
            entity TEXT NOT NULL,
            entity_id TEXT NOT NULL,
            change TEXT NOT NULL
        ) STRICT;

        -- To-dos are ordered by a fractional key (SYNC.md): a move writes one row, so two devices
        -- moving different to-dos never renumber each other's. `sort_order` stays as the rank the
        -- seed's model shows, recomputed from (order_key, id). Existing lists get keys in their order.
        ALTER TABLE todo_item ADD COLUMN order_key TEXT NOT NULL DEFAULT '';
        UPDATE todo_item SET order_key =
            substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', (sort_order / 238328) % 62 + 1, 1) ||
            substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', (sort_order / 3844) % 62 + 1, 1) ||
            substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', (sort_order / 62) % 62 + 1, 1) ||
            substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', sort_order % 62 + 1, 1) || 'V';
        CREATE INDEX todo_item_order ON todo_item (timer_id, order_key, id);

        -- The ten-enabled-apps limit stays for what a person does on this device; a merge of other
        -- devices' choices is resolved when read (latest enables win).
        DROP TRIGGER social_app_enabled_limit_insert;
        DROP TRIGGER social_app_enabled_limit_update;
        CREATE TRIGGER social_app_enabled_limit_insert BEFORE INSERT ON social_app
        WHEN NEW.is_enabled = 1 AND NOT EXISTS (SELECT 1 FROM sync_applying)
            AND (SELECT count(*) FROM social_app WHERE is_enabled = 1) >= 10 BEGIN
            SELECT RAISE(ABORT, 'At most 10 apps can be enabled');
        END;
        CREATE TRIGGER social_app_enabled_limit_update BEFORE UPDATE OF is_enabled ON social_app
        WHEN NEW.is_enabled = 1 AND OLD.is_enabled = 0 AND NOT EXISTS (SELECT 1 FROM sync_applying)
            AND (SELECT count(*) FROM social_app WHERE is_enabled = 1) >= 10 BEGIN
            SELECT RAISE(ABORT, 'At most 10 apps can be enabled');
        END;

        """

    /// Changes that one side of sync refused, set aside so that they never block what follows:
    /// `push`, a mutation of this device the server refused (its place in the outbox is taken by a
    /// `skip` with the same id, so that ids still follow on; the value stays on this device); `pull`, a
    /// change from the server this store cannot hold (a value an older Grove let through). Each keeps
    /// the field and rule it broke, for `grove sync status`. Local to the device; never synced.
    static let v13SyncRefusals = """
        CREATE TABLE sync_refusal (
            id INTEGER PRIMARY KEY,
            direction TEXT NOT NULL CHECK (direction IN ('push', 'pull')),
            entity TEXT NOT NULL,
            entity_id TEXT NOT NULL,
            field TEXT NOT NULL,
            message TEXT NOT NULL,
            change TEXT NOT NULL,
            refused_at INTEGER NOT NULL
        ) STRICT;
        """

    /// The server's time as last learned, with the monotonic reading it was learned at
    /// (`ServerClock`): a wall clock fixed after that changes no stamp.
    static let v14ServerClockAnchor = """
        ALTER TABLE sync_state ADD COLUMN clock_anchor_ms INTEGER;
        ALTER TABLE sync_state ADD COLUMN clock_anchor_boot TEXT;
        ALTER TABLE sync_state ADD COLUMN clock_anchor_since REAL;
        """
}
