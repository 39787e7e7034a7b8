import GRDB

extension AppDatabase {
    /// "v3-sync": the device side of Grove Sync (SYNC.md "Storage").
    ///
    /// - `sync_state`: one row once the device is logged in (server, device id, cursor, clock). Capture
    ///   is on exactly while it exists, so a store that never syncs pays nothing.
    /// - `sync_outbox`: one row per changed entity, written by triggers in the same transaction as the
    ///   change, whichever process made it (CLI, server, import, even the `sqlite3` shell). `dirty`
    ///   holds the changed field groups as bits; `fresh` those not yet given a clock (the writing
    ///   transaction stamps them before it commits). A sealed row has a `mutation_id` and its payload,
    ///   so that a retried push sends the same mutation again.
    /// - `sync_clock`: the clock of each group of each synced row (bit 28: last insert, 29: delete).
    /// - `sync_applying`: holds a row only inside a transaction applying pulled changes: triggers skip
    ///   capture then (nobody else ever sees the row: it is deleted before that transaction commits).
    /// - `sync_inbox`: pulled changes waiting to be applied together (parents may come on a later page).
    ///
    /// The capture triggers come from `captured` below: the column groups as they were when this
    /// migration shipped, frozen here so that the migration means the same thing forever.
    static let v3Sync: String = {
        var sql = """
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
        for table in captured { sql += captureTriggers(table) }
        return sql
    }()

    /// A synced table as captured: entity name, key column (or the fixed id of a one-row table),
    /// rows left out, and the columns of each field group (bit = position).
    private struct Captured {
        let entity: String, table: String, key: String, singleton: String?, localOnly: String?
        let groups: [[String]]
    }

    private static let captured: [Captured] = [
        Captured(entity: "theme", table: "intention_theme", key: "id", singleton: nil, localOnly: "is_preset = 1",
                 groups: [["name"], ["background_color"], ["text_color"], ["accent_color"], ["font_name"], ["is_ai_generated"], ["created_at"]]),
        Captured(entity: "content", table: "mindfulness_content", key: "id", singleton: nil, localOnly: "is_bundled = 1",
                 groups: [["type"], ["text"], ["category"], ["author"], ["length"], ["priority"]]),
        Captured(entity: "app", table: "social_app", key: "id", singleton: nil, localOnly: nil,
                 groups: [["display_name"], ["url_scheme"], ["icon_asset_name"], ["is_enabled"], ["sort_order"], ["web_url"]]),
        Captured(entity: "timer", table: "timer", key: "id", singleton: nil, localOnly: nil,
                 groups: [["name"], ["duration_in_seconds"], ["icon"], ["color_hex"], ["notes"], ["created_at"], ["updated_at"]]),
        Captured(entity: "todo", table: "todo_item", key: "id", singleton: nil, localOnly: nil,
                 groups: [["timer_id"], ["text"], ["is_completed"], ["sort_order"], ["created_at"], ["updated_at"]]),
        Captured(entity: "intention", table: "intention", key: "id", singleton: nil, localOnly: nil,
                 groups: [["scope", "date"], ["text"], ["created_at"], ["updated_at"], ["theme_id"], ["custom_font"], ["ai_generated"],
                          ["ai_rephrased"], ["quote"]]),
        Captured(entity: "userPreferences", table: "user_preferences", key: "id", singleton: "user", localOnly: nil,
                 groups: [["onboarding_completed"], ["default_theme_id"], ["default_font"], ["daily_enabled", "daily_time"],
                          ["weekly_enabled", "weekly_time", "weekly_day"], ["monthly_enabled", "monthly_time", "monthly_day"], ["time_zone"],
                          ["first_weekday"]]),
        Captured(entity: "focusPreferences", table: "focus_preferences", key: "id", singleton: "focus", localOnly: nil,
                 groups: [["focus_ms"], ["short_break_ms"], ["long_break_ms"], ["long_break_interval"]]),
        Captured(entity: "pausePreferences", table: "pause_preferences", key: "id", singleton: "pause", localOnly: nil,
                 groups: [["timer_duration"], ["selected_categories"], ["onboarding_completed"], ["trial_start_date"], ["analytics_opt_in"]]),
        Captured(entity: "focusSession", table: "focus_session", key: "id", singleton: nil, localOnly: nil,
                 groups: [["start_time", "end_time", "state", "duration_ms", "paused_ms", "planned_ms", "paused_at", "created_at", "time_zone",
                           "end_day", "clock_uncertain"]]),
        Captured(entity: "gatewaySession", table: "gateway_session", key: "id", singleton: nil, localOnly: nil,
                 groups: [["app_id", "content_id", "start_timestamp", "duration_setting", "completion_status", "time_spent", "action_outcome",
                           "platform", "time_zone", "local_day", "end_timestamp"]]),
    ]

    /// The three triggers that write a table's changes to the outbox.
    private static func captureTriggers(_ t: Captured) -> String {
        let all = (1 << t.groups.count) - 1
        let alive = 1 << 28, tomb = 1 << 29
        let id = { (row: String) in t.singleton.map { "'\($0)'" } ?? "\(row).\(t.key)" }
        let on = "EXISTS (SELECT 1 FROM sync_state) AND NOT EXISTS (SELECT 1 FROM sync_applying)"
        let keep = { (row: String) in t.localOnly.map { " AND NOT (\($0.replacingOccurrences(of: "is_", with: "\(row).is_")))" } ?? "" }
        let upsert = "ON CONFLICT (entity, entity_id) WHERE mutation_id IS NULL DO UPDATE SET dirty = dirty | excluded.dirty, fresh = fresh | excluded.fresh"
        let changed = t.groups.enumerated().map { index, columns in
            "(CASE WHEN " + columns.map { "OLD.\($0) IS NOT NEW.\($0)" }.joined(separator: " OR ") + " THEN \(1 << index) ELSE 0 END)"
        }.joined(separator: " | ")
        return """
            CREATE TRIGGER sync_capture_\(t.table)_insert AFTER INSERT ON \(t.table) WHEN \(on)\(keep("NEW")) BEGIN
                INSERT INTO sync_outbox (entity, entity_id, dirty, fresh) VALUES ('\(t.entity)', \(id("NEW")), \(all | alive), \(all | alive)) \(upsert);
            END;
            CREATE TRIGGER sync_capture_\(t.table)_update AFTER UPDATE ON \(t.table) WHEN \(on)\(keep("NEW")) BEGIN
                INSERT INTO sync_outbox (entity, entity_id, dirty, fresh)
                SELECT '\(t.entity)', \(id("NEW")), bits, bits FROM (SELECT \(changed) AS bits) WHERE bits <> 0 \(upsert);
            END;
            CREATE TRIGGER sync_capture_\(t.table)_delete AFTER DELETE ON \(t.table) WHEN \(on)\(keep("OLD")) BEGIN
                INSERT INTO sync_outbox (entity, entity_id, dirty, fresh) VALUES ('\(t.entity)', \(id("OLD")), \(tomb), \(tomb))
                ON CONFLICT (entity, entity_id) WHERE mutation_id IS NULL DO UPDATE SET dirty = \(tomb), fresh = fresh | \(tomb);
            END;

            """
    }
}
