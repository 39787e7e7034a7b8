import GRDB

/// The first schema, as it shipped (never edited: later migrations change it).
extension AppDatabase {
    static let v1 = """
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
