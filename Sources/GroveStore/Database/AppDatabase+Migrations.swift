import GRDB

extension AppDatabase {
    /// The schema's history. Shipped migrations are never edited: add a new one instead.
    /// They use SQL only (no app types), so that they mean the same thing forever.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: v1)
        }
        migrator.registerMigration("v2-session-order") { db in
            try db.execute(sql: v2)
        }
        migrator.registerMigration("v3-sync") { db in
            try db.execute(sql: v3Sync)
        }
        migrator.registerMigration("v4-content-sources") { db in
            try db.execute(sql: v4ContentSources)
        }
        migrator.registerMigration("v5-adaptive-friction") { db in
            try db.execute(sql: v5AdaptiveFriction)
        }
        migrator.registerMigration("v6-focus-tags") { db in
            try db.execute(sql: v6FocusTags)
        }
        migrator.registerMigration("v7-timer-runs") { db in
            try db.execute(sql: v7TimerRuns)
        }
        migrator.registerMigration("v8-focus-notices") { db in
            try db.execute(sql: v8FocusNotices)
        }
        migrator.registerMigration("v9-todo-ticks") { db in
            try db.execute(sql: v9TodoTicks)
        }
        return migrator
    }

    private static let hex = "'#[0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f]'"
    private static let day = "'[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'"
    private static let time = "'[0-2][0-9]:[0-5][0-9]'"
    private static func bool(_ column: String) -> String { "\(column) INTEGER NOT NULL CHECK (\(column) IN (0, 1))" }

    /// Indexes that let session lists page in SQL, newest first, without sorting every session: all
    /// sessions, one state's, and the latest one (`grove focus status`).
    private static let v2 = """
        CREATE INDEX focus_session_start ON focus_session (start_time DESC, id);
        CREATE INDEX focus_session_state_start ON focus_session (state, start_time DESC, id);
        """

    /// Named timers counting down, one run per timer, kept in the store so that a run outlives the
    /// page, terminal or process that started it. Local to the device (a countdown is where you are);
    /// `notified` makes the completion notice go out once, whoever notices first.
    private static let v7TimerRuns = """
        CREATE TABLE timer_run (
            timer_id TEXT PRIMARY KEY NOT NULL REFERENCES timer(id) ON DELETE CASCADE,
            duration_ms INTEGER NOT NULL CHECK (duration_ms BETWEEN 1000 AND 86400000),
            started_at INTEGER NOT NULL,
            paused_ms INTEGER NOT NULL CHECK (paused_ms >= 0),
            paused_at INTEGER CHECK (paused_at IS NULL OR paused_at >= started_at),
            \(bool("notified"))
        ) STRICT;
        """

    /// The completed sessions whose "tree planted" notice went out on this device: whoever notices
    /// first (a detached waiter, the live terminal, the server, a page) claims it, the others stay
    /// quiet. Local to the device like `timer_run` (each device rings for itself); not synced.
    private static let v8FocusNotices = """
        CREATE TABLE focus_notice (
            session_id TEXT PRIMARY KEY NOT NULL REFERENCES focus_session(id) ON DELETE CASCADE,
            noticed_at INTEGER NOT NULL
        ) STRICT, WITHOUT ROWID;
        """

    /// The instant a to-do was ticked (`completed_at`), apart from `updated_at`: a later edit of its text
    /// or a reorder must not move the tick into another week's review. Set by trigger from the writing
    /// statement's `updated_at` whenever `is_completed` changes and the statement did not set it itself
    /// (a pulled row carries its own); cleared when unticked. Existing ticks keep their last change.
    private static let v9TodoTicks = """
        ALTER TABLE todo_item ADD COLUMN completed_at INTEGER;
        UPDATE todo_item SET completed_at = updated_at WHERE is_completed = 1;
        CREATE INDEX todo_item_completed ON todo_item (completed_at) WHERE completed_at IS NOT NULL;
        CREATE TRIGGER todo_item_tick AFTER UPDATE OF is_completed ON todo_item
        WHEN NEW.is_completed IS NOT OLD.is_completed AND NEW.completed_at IS OLD.completed_at BEGIN
            UPDATE todo_item SET completed_at = CASE WHEN NEW.is_completed = 1 THEN NEW.updated_at END WHERE id = NEW.id;
        END;
        CREATE TRIGGER todo_item_tick_insert AFTER INSERT ON todo_item
        WHEN NEW.is_completed = 1 AND NEW.completed_at IS NULL BEGIN
            UPDATE todo_item SET completed_at = NEW.updated_at WHERE id = NEW.id;
        END;
        """

    /// What a terminal session adds to its day's per-tag totals (insert, and the new side of an update).
    private static let addNewTags = """
        INSERT INTO focus_day_tag (tag, day, trees, abandoned, focus_ms)
            SELECT DISTINCT value, NEW.end_day, NEW.state = 'completed', NEW.state = 'abandoned',
                   CASE WHEN NEW.state = 'completed' THEN NEW.duration_ms ELSE 0 END
            FROM json_each(NEW.tags) WHERE true
            ON CONFLICT (tag, day) DO UPDATE SET trees = trees + excluded.trees,
                abandoned = abandoned + excluded.abandoned, focus_ms = focus_ms + excluded.focus_ms;
        """

    /// What it takes back (delete, and the old side of an update); rows left at zero go.
    private static let subtractOldTags = """
        UPDATE focus_day_tag SET trees = trees - (OLD.state = 'completed'), abandoned = abandoned - (OLD.state = 'abandoned'),
                focus_ms = focus_ms - CASE WHEN OLD.state = 'completed' THEN OLD.duration_ms ELSE 0 END
            WHERE day = OLD.end_day AND tag IN (SELECT value FROM json_each(OLD.tags));
            DELETE FROM focus_day_tag WHERE day = OLD.end_day AND tag IN (SELECT value FROM json_each(OLD.tags)) AND trees = 0 AND abandoned = 0;
        """

    /// Tags on focus sessions, and per-day-per-tag totals kept by triggers like `focus_day`'s, so that
    /// stats by tag cost the tag's days, never its sessions. `tags` is a JSON array of strings (NULL:
    /// none), written sorted by Grove; a session's tag counted once however the array repeats it. The
    /// triggers' names start `focus_day_` so that a bulk write sets them aside with the others.
    private static let v6FocusTags = """
        ALTER TABLE focus_session ADD COLUMN tags TEXT
            CHECK (tags IS NULL OR (json_valid(tags) AND json_type(tags) = 'array' AND json_array_length(tags) BETWEEN 1 AND 10));
        CREATE TABLE focus_day_tag (
            tag TEXT NOT NULL CHECK (length(tag) BETWEEN 1 AND 40),
            day TEXT NOT NULL CHECK (day GLOB \(day)),
            trees INTEGER NOT NULL CHECK (trees >= 0),
            abandoned INTEGER NOT NULL CHECK (abandoned >= 0),
            focus_ms INTEGER NOT NULL CHECK (focus_ms >= 0),
            PRIMARY KEY (tag, day)
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX focus_day_tag_day ON focus_day_tag (day);

        CREATE TRIGGER focus_day_tag_insert AFTER INSERT ON focus_session WHEN NEW.end_day IS NOT NULL AND NEW.tags IS NOT NULL BEGIN
            \(addNewTags)
        END;
        CREATE TRIGGER focus_day_tag_delete AFTER DELETE ON focus_session WHEN OLD.end_day IS NOT NULL AND OLD.tags IS NOT NULL BEGIN
            \(subtractOldTags)
        END;
        CREATE TRIGGER focus_day_tag_update_old AFTER UPDATE ON focus_session WHEN OLD.end_day IS NOT NULL AND OLD.tags IS NOT NULL BEGIN
            \(subtractOldTags)
        END;
        CREATE TRIGGER focus_day_tag_update_new AFTER UPDATE ON focus_session WHEN NEW.end_day IS NOT NULL AND NEW.tags IS NOT NULL BEGIN
            \(addNewTags)
        END;
        """

    /// Content packs over HTTP(S): the sources, and which source each item came from. An item a
    /// pack no longer carries is `retired` (kept for the pauses that showed it, never shown again)
    /// rather than deleted, because deleting it would delete those pauses. `source_url` names a
    /// source without referencing the table: items synced from another device may come from a source
    /// this device does not follow. `retired` may be NULL (an item synced from a Grove before it
    /// existed): read as not retired.
    private static let v4ContentSources = """
        CREATE TABLE content_source (
            url TEXT PRIMARY KEY NOT NULL CHECK (length(url) BETWEEN 8 AND 2048 AND (url GLOB 'http://?*' OR url GLOB 'https://?*')),
            added_at INTEGER NOT NULL,
            etag TEXT,
            last_checked INTEGER,
            last_fetched INTEGER,
            item_count INTEGER NOT NULL DEFAULT 0 CHECK (item_count >= 0),
            last_error TEXT
        ) STRICT;
        ALTER TABLE mindfulness_content ADD COLUMN source_url TEXT;
        ALTER TABLE mindfulness_content ADD COLUMN retired INTEGER DEFAULT 0 CHECK (retired IS NULL OR retired IN (0, 1));
        CREATE INDEX mindfulness_content_source ON mindfulness_content (source_url) WHERE source_url IS NOT NULL;
        """

    /// Adaptive friction: a row per app that has it on (no row: off), with the length it reached and
    /// what its last weekly review saw.
    private static let v5AdaptiveFriction = """
        CREATE TABLE pause_friction (
            app_id TEXT PRIMARY KEY NOT NULL REFERENCES social_app (id) ON DELETE CASCADE,
            duration INTEGER NOT NULL CHECK (duration BETWEEN 15 AND 45),
            reviewed_day TEXT CHECK (reviewed_day IS NULL OR reviewed_day GLOB \(day)),
            last_change INTEGER NOT NULL CHECK (last_change BETWEEN -30 AND 30),
            recent_exit_rate REAL CHECK (recent_exit_rate IS NULL OR recent_exit_rate BETWEEN 0 AND 1),
            earlier_exit_rate REAL CHECK (earlier_exit_rate IS NULL OR earlier_exit_rate BETWEEN 0 AND 1)
        ) STRICT;
        """

    private static let v1 = """
        CREATE TABLE grove_meta (
            key TEXT PRIMARY KEY NOT NULL,
            value TEXT NOT NULL
        ) STRICT, WITHOUT ROWID;

        -- Focus -------------------------------------------------------------------------------
        -- Instants are INTEGER milliseconds since 1970 UTC; durations INTEGER milliseconds.
        CREATE TABLE focus_session (
            id TEXT PRIMARY KEY NOT NULL,
            start_time INTEGER NOT NULL,
            end_time INTEGER,
            state TEXT NOT NULL CHECK (state IN ('active', 'paused', 'completed', 'abandoned')),
            duration_ms INTEGER NOT NULL CHECK (duration_ms >= 0 AND duration_ms <= planned_ms),
            paused_ms INTEGER NOT NULL CHECK (paused_ms >= 0),
            planned_ms INTEGER NOT NULL CHECK (planned_ms BETWEEN 1000 AND 14400000),
            paused_at INTEGER,
            created_at INTEGER NOT NULL,
            time_zone TEXT NOT NULL CHECK (time_zone <> ''),
            end_day TEXT CHECK (end_day IS NULL OR end_day GLOB \(day)),
            \(bool("clock_uncertain")),
            anchor_boot_id TEXT,
            anchor_since_boot REAL,
            anchor_wall INTEGER,
            CHECK ((state IN ('completed', 'abandoned')) = (end_time IS NOT NULL AND end_day IS NOT NULL)),
            CHECK ((state = 'paused') = (paused_at IS NOT NULL)),
            CHECK (end_time IS NULL OR end_time >= start_time)
        ) STRICT;
        -- At most one active-or-paused session, whichever process writes.
        CREATE UNIQUE INDEX focus_session_one_open ON focus_session (state IN ('active', 'paused'))
            WHERE state IN ('active', 'paused');
        CREATE INDEX focus_session_state_end ON focus_session (state, end_time);
        CREATE INDEX focus_session_end_day ON focus_session (end_day);

        -- Per-day totals of terminal sessions, kept exact by triggers in the same transaction:
        -- stats read one row per day instead of one per session.
        CREATE TABLE focus_day (
            day TEXT PRIMARY KEY NOT NULL CHECK (day GLOB \(day)),
            trees INTEGER NOT NULL CHECK (trees >= 0),
            abandoned INTEGER NOT NULL CHECK (abandoned >= 0),
            focus_ms INTEGER NOT NULL CHECK (focus_ms >= 0)
        ) STRICT, WITHOUT ROWID;

        CREATE TRIGGER focus_day_insert AFTER INSERT ON focus_session WHEN NEW.end_day IS NOT NULL BEGIN
            INSERT INTO focus_day (day, trees, abandoned, focus_ms)
            VALUES (NEW.end_day, NEW.state = 'completed', NEW.state = 'abandoned',
                    CASE WHEN NEW.state = 'completed' THEN NEW.duration_ms ELSE 0 END)
            ON CONFLICT (day) DO UPDATE SET trees = trees + excluded.trees,
                abandoned = abandoned + excluded.abandoned, focus_ms = focus_ms + excluded.focus_ms;
        END;
        CREATE TRIGGER focus_day_delete AFTER DELETE ON focus_session WHEN OLD.end_day IS NOT NULL BEGIN
            UPDATE focus_day SET trees = trees - (OLD.state = 'completed'), abandoned = abandoned - (OLD.state = 'abandoned'),
                focus_ms = focus_ms - CASE WHEN OLD.state = 'completed' THEN OLD.duration_ms ELSE 0 END
            WHERE day = OLD.end_day;
            DELETE FROM focus_day WHERE day = OLD.end_day AND trees = 0 AND abandoned = 0;
        END;
        CREATE TRIGGER focus_day_update_old AFTER UPDATE ON focus_session WHEN OLD.end_day IS NOT NULL BEGIN
            UPDATE focus_day SET trees = trees - (OLD.state = 'completed'), abandoned = abandoned - (OLD.state = 'abandoned'),
                focus_ms = focus_ms - CASE WHEN OLD.state = 'completed' THEN OLD.duration_ms ELSE 0 END
            WHERE day = OLD.end_day;
            DELETE FROM focus_day WHERE day = OLD.end_day AND trees = 0 AND abandoned = 0;
        END;
        CREATE TRIGGER focus_day_update_new AFTER UPDATE ON focus_session WHEN NEW.end_day IS NOT NULL BEGIN
            INSERT INTO focus_day (day, trees, abandoned, focus_ms)
            VALUES (NEW.end_day, NEW.state = 'completed', NEW.state = 'abandoned',
                    CASE WHEN NEW.state = 'completed' THEN NEW.duration_ms ELSE 0 END)
            ON CONFLICT (day) DO UPDATE SET trees = trees + excluded.trees,
                abandoned = abandoned + excluded.abandoned, focus_ms = focus_ms + excluded.focus_ms;
        END;

        CREATE TABLE focus_preferences (
            id INTEGER PRIMARY KEY NOT NULL CHECK (id = 1),
            focus_ms INTEGER NOT NULL CHECK (focus_ms BETWEEN 1000 AND 14400000),
            short_break_ms INTEGER NOT NULL CHECK (short_break_ms BETWEEN 1000 AND 3600000),
            long_break_ms INTEGER NOT NULL CHECK (long_break_ms BETWEEN 1000 AND 7200000),
            long_break_interval INTEGER NOT NULL CHECK (long_break_interval BETWEEN 1 AND 12)
        ) STRICT;

        -- Timers ------------------------------------------------------------------------------
        CREATE TABLE timer (
            id TEXT PRIMARY KEY NOT NULL,
            name TEXT NOT NULL CHECK (length(trim(name)) > 0 AND length(name) <= 100),
            duration_in_seconds INTEGER NOT NULL CHECK (duration_in_seconds BETWEEN 1 AND 86400),
            icon TEXT NOT NULL CHECK (length(trim(icon)) > 0),
            color_hex TEXT NOT NULL CHECK (color_hex GLOB \(hex)),
            notes TEXT CHECK (notes IS NULL OR length(notes) <= 2000),
            created_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX timer_created_at ON timer (created_at);
        CREATE INDEX timer_name ON timer (name);

        CREATE TABLE todo_item (
            id TEXT PRIMARY KEY NOT NULL,
            timer_id TEXT NOT NULL REFERENCES timer (id) ON DELETE CASCADE,
            text TEXT NOT NULL CHECK (length(trim(text)) > 0 AND length(text) <= 500),
            \(bool("is_completed")),
            sort_order INTEGER NOT NULL CHECK (sort_order >= 0),
            created_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX todo_item_timer ON todo_item (timer_id, sort_order);

        -- Pause -------------------------------------------------------------------------------
        CREATE TABLE social_app (
            id TEXT PRIMARY KEY NOT NULL
                CHECK (length(id) BETWEEN 1 AND 64 AND id NOT GLOB '*[^a-z0-9-]*' AND id NOT GLOB '-*' AND id NOT GLOB '*-'),
            display_name TEXT NOT NULL CHECK (length(trim(display_name)) > 0),
            url_scheme TEXT NOT NULL CHECK (url_scheme GLOB '[A-Za-z]*://' AND instr(url_scheme, '://') = length(url_scheme) - 2),
            icon_asset_name TEXT NOT NULL,
            \(bool("is_enabled")),
            sort_order INTEGER NOT NULL CHECK (sort_order >= 0),
            web_url TEXT CHECK (web_url IS NULL OR web_url GLOB 'http://?*' OR web_url GLOB 'https://?*')
        ) STRICT;
        CREATE TRIGGER social_app_enabled_limit_insert BEFORE INSERT ON social_app
        WHEN NEW.is_enabled = 1 AND (SELECT count(*) FROM social_app WHERE is_enabled = 1) >= 10 BEGIN
            SELECT RAISE(ABORT, 'At most 10 apps can be enabled');
        END;
        CREATE TRIGGER social_app_enabled_limit_update BEFORE UPDATE OF is_enabled ON social_app
        WHEN NEW.is_enabled = 1 AND OLD.is_enabled = 0 AND (SELECT count(*) FROM social_app WHERE is_enabled = 1) >= 10 BEGIN
            SELECT RAISE(ABORT, 'At most 10 apps can be enabled');
        END;

        CREATE TABLE mindfulness_content (
            id TEXT PRIMARY KEY NOT NULL CHECK (length(id) BETWEEN 1 AND 100),
            type TEXT NOT NULL CHECK (type IN ('quote', 'excerpt', 'prompt')),
            text TEXT NOT NULL CHECK (length(text) BETWEEN 50 AND 750),
            category TEXT NOT NULL CHECK (category IN ('stoicism', 'productivity', 'mindfulness', 'gratitude', 'nature', 'philosophy')),
            author TEXT,
            length INTEGER NOT NULL CHECK (length BETWEEN 10 AND 60),
            priority INTEGER NOT NULL CHECK (priority BETWEEN 1 AND 10),
            \(bool("is_bundled")),
            last_used INTEGER,
            times_shown INTEGER NOT NULL CHECK (times_shown >= 0)
        ) STRICT;
        CREATE INDEX mindfulness_content_category ON mindfulness_content (category);

        CREATE TABLE gateway_session (
            id TEXT PRIMARY KEY NOT NULL,
            app_id TEXT NOT NULL REFERENCES social_app (id) ON DELETE CASCADE,
            content_id TEXT NOT NULL REFERENCES mindfulness_content (id) ON DELETE CASCADE,
            start_timestamp INTEGER NOT NULL,
            duration_setting INTEGER NOT NULL CHECK (duration_setting BETWEEN 15 AND 45),
            completion_status TEXT CHECK (completion_status IS NULL OR completion_status IN ('completed', 'exited', 'force_quit', 'timeout')),
            time_spent INTEGER NOT NULL CHECK (time_spent >= 0 AND time_spent <= duration_setting + 5),
            action_outcome TEXT CHECK (action_outcome IS NULL OR action_outcome IN ('proceed_to_app', 'exit_to_home', 'deepen_pause')),
            platform TEXT NOT NULL,
            time_zone TEXT NOT NULL CHECK (time_zone <> ''),
            local_day TEXT NOT NULL CHECK (local_day GLOB \(day)),
            end_timestamp INTEGER,
            CHECK ((completion_status IS NULL) = (end_timestamp IS NULL))
        ) STRICT;
        CREATE INDEX gateway_session_app_day ON gateway_session (app_id, local_day);
        CREATE INDEX gateway_session_day ON gateway_session (local_day);
        CREATE INDEX gateway_session_open ON gateway_session (start_timestamp) WHERE completion_status IS NULL;

        CREATE TABLE pause_preferences (
            id TEXT PRIMARY KEY NOT NULL CHECK (id = 'user_preferences'),
            timer_duration INTEGER NOT NULL CHECK (timer_duration BETWEEN 15 AND 45),
            selected_categories TEXT NOT NULL CHECK (json_valid(selected_categories) AND json_array_length(selected_categories) >= 1),
            \(bool("onboarding_completed")),
            trial_start_date INTEGER,
            last_content_sync INTEGER,
            \(bool("analytics_opt_in"))
        ) STRICT;

        -- Intentions --------------------------------------------------------------------------
        CREATE TABLE intention_theme (
            id TEXT PRIMARY KEY NOT NULL,
            name TEXT NOT NULL CHECK (length(trim(name)) > 0),
            background_color TEXT NOT NULL CHECK (background_color GLOB \(hex)),
            text_color TEXT NOT NULL CHECK (text_color GLOB \(hex)),
            accent_color TEXT CHECK (accent_color IS NULL OR accent_color GLOB \(hex)),
            font_name TEXT,
            \(bool("is_preset")),
            \(bool("is_ai_generated")),
            created_at INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX intention_theme_order ON intention_theme (is_preset DESC, created_at);

        -- Deleting a theme must not delete the intentions shown in it: those fall back to the default.
        CREATE TABLE intention (
            id TEXT PRIMARY KEY NOT NULL,
            text TEXT NOT NULL CHECK (length(trim(text)) > 0 AND length(text) <= 500),
            scope TEXT NOT NULL CHECK (scope IN ('day', 'week', 'month')),
            date TEXT NOT NULL CHECK (date GLOB \(day)),
            created_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL,
            theme_id TEXT REFERENCES intention_theme (id) ON DELETE SET NULL,
            custom_font TEXT,
            \(bool("ai_generated")),
            \(bool("ai_rephrased")),
            quote TEXT CHECK (quote IS NULL OR length(quote) <= 1000)
        ) STRICT;
        CREATE INDEX intention_scope_date ON intention (scope, date);
        CREATE INDEX intention_date ON intention (date);

        CREATE TABLE user_preferences (
            id TEXT PRIMARY KEY NOT NULL,
            \(bool("onboarding_completed")),
            default_theme_id TEXT REFERENCES intention_theme (id) ON DELETE SET NULL,
            default_font TEXT,
            \(bool("daily_enabled")),
            daily_time TEXT CHECK (daily_time IS NULL OR daily_time GLOB \(time)),
            \(bool("weekly_enabled")),
            weekly_time TEXT CHECK (weekly_time IS NULL OR weekly_time GLOB \(time)),
            weekly_day INTEGER NOT NULL CHECK (weekly_day BETWEEN 0 AND 6),
            \(bool("monthly_enabled")),
            monthly_time TEXT CHECK (monthly_time IS NULL OR monthly_time GLOB \(time)),
            monthly_day INTEGER NOT NULL CHECK (monthly_day BETWEEN 1 AND 31),
            time_zone TEXT,
            first_weekday INTEGER NOT NULL CHECK (first_weekday BETWEEN 0 AND 6),
            CHECK (NOT daily_enabled OR daily_time IS NOT NULL),
            CHECK (NOT weekly_enabled OR weekly_time IS NOT NULL),
            CHECK (NOT monthly_enabled OR monthly_time IS NOT NULL)
        ) STRICT;
        -- The singleton: a second row is refused whatever its id.
        CREATE UNIQUE INDEX user_preferences_singleton ON user_preferences ((1));
        """
}
