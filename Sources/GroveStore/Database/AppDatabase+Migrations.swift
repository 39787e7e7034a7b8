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
        migrator.registerMigration("v10-retired-apps") { db in
            try db.execute(sql: v10RetiredApps)
        }
        migrator.registerMigration("v11-timer-run-anchors") { db in
            try db.execute(sql: v11TimerRunAnchors)
        }
        migrator.registerMigration("v12-open-sessions-and-breaks") { db in
            try db.execute(sql: v12OpenSessionsAndBreaks)
        }
        migrator.registerMigration("v13-sync-refusals") { db in
            try db.execute(sql: v13SyncRefusals)
        }
        migrator.registerMigration("v14-server-clock-anchor") { db in
            try db.execute(sql: v14ServerClockAnchor)
        }
        migrator.registerMigration("v15-pause-history-kept") { db in
            try db.execute(sql: v15PauseHistoryKept)
        }
        migrator.registerMigration("v16-tag-spelling") { db in
            try db.execute(sql: v16TagSpelling)
        }
        migrator.registerMigration("v17-tag-days-folded") { db in
            try db.execute(sql: v17TagDaysFolded)
        }
        migrator.registerMigration("v18-web-sessions") { db in
            try db.execute(sql: v18WebSessions)
        }
        migrator.registerMigration("v19-applied-requests") { db in
            try db.execute(sql: v19AppliedRequests)
        }
        migrator.registerMigration("v20-push-subscriptions") { db in
            try db.execute(sql: v20PushSubscriptions)
        }
        registerPauseRulesAndForest(&migrator)
        return migrator
    }

    static let hex = "'#[0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f]'"
    static let day = "'[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'"
    static let time = "'[0-2][0-9]:[0-5][0-9]'"
    static func bool(_ column: String) -> String { "\(column) INTEGER NOT NULL CHECK (\(column) IN (0, 1))" }

    /// Indexes that let session lists page in SQL, newest first, without sorting every session: all
    /// sessions, one state's, and the latest one (`grove focus status`).
    static let v2 = """
        CREATE INDEX focus_session_start ON focus_session (start_time DESC, id);
        CREATE INDEX focus_session_state_start ON focus_session (state, start_time DESC, id);
        """

    /// Named timers counting down, one run per timer, kept in the store so that a run outlives the
    /// page, terminal or process that started it. Local to the device (a countdown is where you are);
    /// `notified` makes the completion notice go out once, whoever notices first.
    static let v7TimerRuns = """
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
    static let v8FocusNotices = """
        CREATE TABLE focus_notice (
            session_id TEXT PRIMARY KEY NOT NULL REFERENCES focus_session(id) ON DELETE CASCADE,
            noticed_at INTEGER NOT NULL
        ) STRICT, WITHOUT ROWID;
        """

    /// The instant a to-do was ticked (`completed_at`), apart from `updated_at`: a later edit of its text
    /// or a reorder must not move the tick into another week's review. Set by trigger from the writing
    /// statement's `updated_at` whenever `is_completed` changes and the statement did not set it itself
    /// (a pulled row carries its own); cleared when unticked. Existing ticks keep their last change.
    static let v9TodoTicks = """
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

    /// An app removed after pauses were taken in front of it is retired, not deleted: its pauses and
    /// their days' statistics stay (history is never deleted as a side effect). A retired app is not
    /// listed, gated or counted; adding its id again brings it back. NULL (a row from a Grove before
    /// this, through sync) reads as not retired.
    private static let v10RetiredApps = """
        ALTER TABLE social_app ADD COLUMN retired INTEGER DEFAULT 0 CHECK (retired IS NULL OR retired IN (0, 1));
        """

    /// A timer's run measured like a focus session: the clock reading at its last transition (start,
    /// pause, resume), so the monotonic clock measures it and a wall clock that steps (NTP, a clock
    /// set by hand, a fast clock corrected) changes nothing. Runs from before have none: the wall clock.
    private static let v11TimerRunAnchors = """
        ALTER TABLE timer_run ADD COLUMN anchor_boot_id TEXT;
        ALTER TABLE timer_run ADD COLUMN anchor_since_boot REAL;
        ALTER TABLE timer_run ADD COLUMN anchor_wall INTEGER;
        """

    /// Open-ended sessions (they count up until stopped; `planned_ms` is the limit at which a
    /// forgotten one stops by itself), and the break after the last planted tree, kept so that a reload,
    /// another face or `grove now` sees the same break. NULL `open_ended` (a row synced from a Grove
    /// before it) reads as planned. One break row at most: a new one replaces it. `notified`: its "break
    /// over" notice went out, whoever noticed first. The anchor (the clock reading when it began) has
    /// the monotonic clock time it, like a session or a timer, so a clock step changes nothing. Local to
    /// the device like `focus_notice`.
    private static let v12OpenSessionsAndBreaks = """
        ALTER TABLE focus_session ADD COLUMN open_ended INTEGER DEFAULT 0 CHECK (open_ended IS NULL OR open_ended IN (0, 1));
        CREATE TABLE focus_break (
            session_id TEXT PRIMARY KEY NOT NULL REFERENCES focus_session(id) ON DELETE CASCADE,
            kind TEXT NOT NULL CHECK (kind IN ('short', 'long')),
            start_time INTEGER NOT NULL,
            duration_ms INTEGER NOT NULL CHECK (duration_ms BETWEEN 1000 AND 7200000),
            ended_at INTEGER CHECK (ended_at IS NULL OR ended_at >= start_time),
            \(bool("notified")) DEFAULT 0,
            anchor_boot_id TEXT,
            anchor_since_boot REAL,
            anchor_wall INTEGER
        ) STRICT, WITHOUT ROWID;
        """

    /// What a terminal session adds to its day's per-tag totals (insert, and the new side of an update).
    static let addNewTags = """
        INSERT INTO focus_day_tag (tag, day, trees, abandoned, focus_ms)
            SELECT DISTINCT value, NEW.end_day, NEW.state = 'completed', NEW.state = 'abandoned',
                   CASE WHEN NEW.state = 'completed' THEN NEW.duration_ms ELSE 0 END
            FROM json_each(NEW.tags) WHERE true
            ON CONFLICT (tag, day) DO UPDATE SET trees = trees + excluded.trees,
                abandoned = abandoned + excluded.abandoned, focus_ms = focus_ms + excluded.focus_ms;
        """

    /// What it takes back (delete, and the old side of an update); rows left at zero go.
    static let subtractOldTags = """
        UPDATE focus_day_tag SET trees = trees - (OLD.state = 'completed'), abandoned = abandoned - (OLD.state = 'abandoned'),
                focus_ms = focus_ms - CASE WHEN OLD.state = 'completed' THEN OLD.duration_ms ELSE 0 END
            WHERE day = OLD.end_day AND tag IN (SELECT value FROM json_each(OLD.tags));
            DELETE FROM focus_day_tag WHERE day = OLD.end_day AND tag IN (SELECT value FROM json_each(OLD.tags)) AND trees = 0 AND abandoned = 0;
        """

    /// Tags on focus sessions, and per-day-per-tag totals kept by triggers like `focus_day`'s, so that
    /// stats by tag cost the tag's days, never its sessions. `tags` is a JSON array of strings (NULL:
    /// none), written sorted by Grove; a session's tag counted once however the array repeats it. The
    /// triggers' names start `focus_day_` so that a bulk write sets them aside with the others.
    static let v6FocusTags = """
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
    static let v4ContentSources = """
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
    static let v5AdaptiveFriction = """
        CREATE TABLE pause_friction (
            app_id TEXT PRIMARY KEY NOT NULL REFERENCES social_app (id) ON DELETE CASCADE,
            duration INTEGER NOT NULL CHECK (duration BETWEEN 15 AND 45),
            reviewed_day TEXT CHECK (reviewed_day IS NULL OR reviewed_day GLOB \(day)),
            last_change INTEGER NOT NULL CHECK (last_change BETWEEN -30 AND 30),
            recent_exit_rate REAL CHECK (recent_exit_rate IS NULL OR recent_exit_rate BETWEEN 0 AND 1),
            earlier_exit_rate REAL CHECK (earlier_exit_rate IS NULL OR earlier_exit_rate BETWEEN 0 AND 1)
        ) STRICT;
        """
}
