extension AppDatabase {
    /// No foreign key cascades into history: a pause's app and content item are `RESTRICT`, not
    /// `CASCADE`. Every removal retires a row that pauses name (locally, and when the deletion comes
    /// through sync), and a path that forgot would now fail in words instead of erasing the pauses.
    /// SQLite cannot alter a foreign key, so the table is made anew (same columns, checks, indexes).
    static let v15PauseHistoryKept = """
        CREATE TABLE gateway_session_kept (
            id TEXT PRIMARY KEY NOT NULL,
            app_id TEXT NOT NULL REFERENCES social_app (id) ON DELETE RESTRICT,
            content_id TEXT NOT NULL REFERENCES mindfulness_content (id) ON DELETE RESTRICT,
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
        INSERT INTO gateway_session_kept (
            id, app_id, content_id, start_timestamp, duration_setting, completion_status, time_spent, action_outcome,
            platform, time_zone, local_day, end_timestamp)
        SELECT id, app_id, content_id, start_timestamp, duration_setting, completion_status, time_spent, action_outcome,
            platform, time_zone, local_day, end_timestamp FROM gateway_session;
        DROP TABLE gateway_session;
        ALTER TABLE gateway_session_kept RENAME TO gateway_session;
        CREATE INDEX gateway_session_app_day ON gateway_session (app_id, local_day);
        CREATE INDEX gateway_session_day ON gateway_session (local_day);
        CREATE INDEX gateway_session_open ON gateway_session (start_timestamp) WHERE completion_status IS NULL;
        """

    /// A tag's earlier spelling found in one lookup (`FocusTagSpelling`): "reading" typed after
    /// "Reading" is one tag, not two.
    static let v16TagSpelling = """
        CREATE INDEX focus_day_tag_folded ON focus_day_tag (lower(tag));
        """

    /// Two devices may each have written a spelling of one tag ("Reading", "reading") before they met
    /// through sync: every read folds them (`lower(tag)`). One index serves a tag's days in order,
    /// across its spellings; the other its first spelling (`FocusTagSpelling`), both without a scan.
    static let v17TagDaysFolded = """
        CREATE INDEX focus_day_tag_folded_day ON focus_day_tag (lower(tag), day);
        CREATE INDEX focus_day_tag_folded_spelling ON focus_day_tag (lower(tag), tag);
        DROP INDEX focus_day_tag_folded;
        """

    /// The browsers signed in to `grove serve` from elsewhere than this machine (a phone, through a
    /// proxy): one row per session, kept by the SHA-256 of its cookie (the cookie itself is never
    /// stored), with what the list in Settings shows. Local to the device, never synced or exported.
    static let v18WebSessions = """
        CREATE TABLE web_session (
            id TEXT PRIMARY KEY NOT NULL CHECK (length(id) = 64),
            created_ms INTEGER NOT NULL,
            last_seen_ms INTEGER NOT NULL,
            user_agent TEXT NOT NULL CHECK (length(user_agent) <= 200),
            address TEXT NOT NULL CHECK (length(address) <= 100)
        ) STRICT, WITHOUT ROWID;
        """

    /// The keys of requests already applied (`Idempotency-Key`): a request sent again — a reply lost
    /// on a train, the web app's offline queue replayed — is applied once. Local to this store (never
    /// synced); pruned after `AppDatabase.appliedRequestsKept`.
    static let v19AppliedRequests = """
        CREATE TABLE applied_request (
            key TEXT PRIMARY KEY NOT NULL CHECK (length(key) BETWEEN 8 AND 100),
            request TEXT NOT NULL CHECK (length(request) <= 300),
            applied_ms INTEGER NOT NULL
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX applied_request_by_time ON applied_request (applied_ms);
        """

    /// The browsers that asked `grove serve` for Web Push (RFC 8030): each subscription's endpoint at
    /// its push service and its keys (RFC 8291: the browser's P-256 public key, 65 bytes, and its
    /// 16-byte auth secret). Local to this store (a push is sent by the Grove the browser uses).
    static let v20PushSubscriptions = """
        CREATE TABLE push_subscription (
            endpoint TEXT PRIMARY KEY NOT NULL CHECK (length(endpoint) BETWEEN 12 AND 2000),
            p256dh BLOB NOT NULL CHECK (length(p256dh) = 65),
            auth BLOB NOT NULL CHECK (length(auth) = 16),
            user_agent TEXT NOT NULL CHECK (length(user_agent) <= 200),
            created_ms INTEGER NOT NULL,
            failures INTEGER NOT NULL DEFAULT 0 CHECK (failures >= 0)
        ) STRICT, WITHOUT ROWID;
        """
}
