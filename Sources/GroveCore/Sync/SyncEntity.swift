import Foundation

/// One synced kind of record (SYNC.md "Per-entity rules"): its table, its wire name, its field groups
/// and the rule that merges two versions of it.
///
/// Pure description: the store turns it into capture triggers and upserts, the server into bodies,
/// and `SyncState.join` into merges, so that every side merges by the same rule.
public struct SyncEntity: Sendable, Hashable, Identifiable {
    /// One column as it travels.
    public struct Field: Sendable, Hashable {
        public enum Kind: Sendable, Hashable { case text, integer, bool }
        public let column: String
        public let wire: String
        public let kind: Kind
        public let optional: Bool
    }

    /// Fields that change together and carry one clock (a CHECK ties them, or they mean one thing).
    public struct Group: Sendable, Hashable {
        public let name: String
        public let fields: [Field]
    }

    /// How two versions of the same group are ordered.
    public enum Rule: Sendable, Hashable {
        /// The later clock wins, per group.
        case lastWriterWins
        /// Terminal states are final and beat open ones; between terminals the earlier end wins;
        /// otherwise the later clock. Applies to the group holding `state` (with its end); any other
        /// group of the entity is last-writer-wins.
        case terminal(state: String, terminalStates: Set<String>, end: String)
    }

    /// A field naming a row of another entity.
    public struct Reference: Sendable, Hashable {
        public let field: String
        public let entity: String
        /// Optional references read as null when the row is gone; required ones hide the row.
        public let optional: Bool
    }

    public var id: String { name }
    /// The wire name (`timer`, `todo`, `focusSession`, …).
    public let name: String
    public let table: String
    public let keyColumn: String
    /// For one-row tables: the id the row has on the wire, whatever its local key.
    public let singleton: String?
    public let groups: [Group]
    public let rule: Rule
    /// A delete that no later edit revives (timers and to-dos: "a delete beats concurrent edits").
    public let stickyDelete: Bool
    public let references: [Reference]
    /// A column whose instant (milliseconds) dates rows written before sync began; else they get the
    /// smallest clock, so that any edit made on a synced device wins over them.
    public let bootstrapClockColumn: String?
    /// Rows of the table that are not synced (presets, bundled content), as SQL over its columns.
    public let localOnly: String?

    /// Group bits 0…23; these two mark a whole-row insert and a delete.
    public static let aliveBit = 28
    public static let tombBit = 29

    public var allGroupBits: Int { (1 << groups.count) - 1 }
    public var fields: [Field] { groups.flatMap(\.fields) }

    public func group(named name: String) -> Group? { groups.first { $0.name == name } }
    public func groupIndex(ofField wire: String) -> Int? { groups.firstIndex { $0.fields.contains { $0.wire == wire } } }
}

extension SyncEntity {
    private static func field(_ column: String, _ kind: Field.Kind = .text, optional: Bool = false) -> Field {
        // Wire names are the seeds' camelCase DTO names.
        var wire = ""
        var upper = false
        for character in column {
            if character == "_" { upper = true; continue }
            wire += upper ? character.uppercased() : String(character)
            upper = false
        }
        return Field(column: column, wire: wire, kind: kind, optional: optional)
    }

    private static func each(_ fields: [Field]) -> [Group] { fields.map { Group(name: $0.wire, fields: [$0]) } }

    /// Every synced entity, parents before children (the order a batch is applied in).
    public static let all: [SyncEntity] = [
        theme, content, app, timer, todo, intention, userPreferences, focusPreferences, pausePreferences,
        focusSession, gatewaySession, gateChange, accountRestore,
    ]

    public static func named(_ name: String) -> SyncEntity? { all.first { $0.name == name } }

    public static let theme = SyncEntity(
        name: "theme", table: "intention_theme", keyColumn: "id", singleton: nil,
        groups: each([
            field("name"), field("background_color"), field("text_color"), field("accent_color", optional: true),
            field("font_name", optional: true), field("is_ai_generated", .bool), field("created_at", .integer),
        ]),
        rule: .lastWriterWins, stickyDelete: false, references: [], bootstrapClockColumn: "created_at", localOnly: "is_preset = 1")

    public static let content = SyncEntity(
        name: "content", table: "mindfulness_content", keyColumn: "id", singleton: nil,
        // A content pack's items travel with the source they came from, so that a device subscribed to
        // the same source finds them its own, and with the flag that retires them from rotation.
        groups: each([
            field("type"), field("text"), field("category"), field("author", optional: true), field("length", .integer),
            field("priority", .integer), field("source_url", optional: true), field("retired", .bool, optional: true),
        ]),
        rule: .lastWriterWins, stickyDelete: false, references: [], bootstrapClockColumn: nil, localOnly: "is_bundled = 1")

    public static let app = SyncEntity(
        name: "app", table: "social_app", keyColumn: "id", singleton: nil,
        groups: each([
            field("display_name"), field("url_scheme"), field("icon_asset_name"), field("is_enabled", .bool),
            field("sort_order", .integer), field("web_url", optional: true), field("retired", .bool, optional: true),
            field("gated_paths", optional: true),
        ])
            + [Group(name: "block", fields: [field("block_schedule", optional: true), field("block_strict", .bool, optional: true)])]
            + each([field("focus_allowed", optional: true)]),
        rule: .lastWriterWins, stickyDelete: false, references: [], bootstrapClockColumn: nil, localOnly: nil)

    public static let timer = SyncEntity(
        name: "timer", table: "timer", keyColumn: "id", singleton: nil,
        groups: each([
            field("name"), field("duration_in_seconds", .integer), field("icon"), field("color_hex"),
            field("notes", optional: true), field("created_at", .integer), field("updated_at", .integer),
        ]),
        rule: .lastWriterWins, stickyDelete: true, references: [], bootstrapClockColumn: "updated_at", localOnly: nil)

    public static let todo = SyncEntity(
        name: "todo", table: "todo_item", keyColumn: "id", singleton: nil,
        // The order travels as the fractional key; `sortOrder` is each device's rank of it.
        // `completedAt`, the tick's own instant, is optional: a Grove from before it sends none.
        groups: each([
            field("timer_id"), field("text"), field("is_completed", .bool), field("order_key"),
            field("created_at", .integer), field("updated_at", .integer), field("completed_at", .integer, optional: true),
        ]),
        rule: .lastWriterWins, stickyDelete: true, references: [Reference(field: "timerId", entity: "timer", optional: false)],
        bootstrapClockColumn: "updated_at", localOnly: nil)

    public static let intention = SyncEntity(
        name: "intention", table: "intention", keyColumn: "id", singleton: nil,
        groups: [Group(name: "period", fields: [field("scope"), field("date")])]
            + each([
                field("text"), field("created_at", .integer), field("updated_at", .integer), field("theme_id", optional: true),
                field("custom_font", optional: true), field("ai_generated", .bool), field("ai_rephrased", .bool),
                field("quote", optional: true),
            ]),
        rule: .lastWriterWins, stickyDelete: false, references: [Reference(field: "themeId", entity: "theme", optional: true)],
        bootstrapClockColumn: "updated_at", localOnly: nil)

    public static let userPreferences = SyncEntity(
        name: "userPreferences", table: "user_preferences", keyColumn: "id", singleton: "user",
        groups: each([
            field("onboarding_completed", .bool), field("default_theme_id", optional: true), field("default_font", optional: true),
        ])
            + [
                Group(name: "daily", fields: [field("daily_enabled", .bool), field("daily_time", optional: true)]),
                Group(
                    name: "weekly",
                    fields: [field("weekly_enabled", .bool), field("weekly_time", optional: true), field("weekly_day", .integer)]),
                Group(
                    name: "monthly",
                    fields: [
                        field("monthly_enabled", .bool), field("monthly_time", optional: true),
                        field("monthly_day", .integer),
                    ]),
            ]
            + each([field("time_zone", optional: true), field("first_weekday", .integer)]),
        rule: .lastWriterWins, stickyDelete: false, references: [Reference(field: "defaultThemeId", entity: "theme", optional: true)],
        bootstrapClockColumn: nil, localOnly: nil)

    public static let focusPreferences = SyncEntity(
        name: "focusPreferences", table: "focus_preferences", keyColumn: "id", singleton: "focus",
        groups: each([
            field("focus_ms", .integer), field("short_break_ms", .integer), field("long_break_ms", .integer),
            field("long_break_interval", .integer),
        ]),
        rule: .lastWriterWins, stickyDelete: false, references: [], bootstrapClockColumn: nil, localOnly: nil)

    public static let pausePreferences = SyncEntity(
        name: "pausePreferences", table: "pause_preferences", keyColumn: "id", singleton: "pause",
        groups: each([
            field("timer_duration", .integer), field("selected_categories"), field("onboarding_completed", .bool),
            field("trial_start_date", .integer, optional: true), field("analytics_opt_in", .bool),
        ]),
        rule: .lastWriterWins, stickyDelete: false, references: [], bootstrapClockColumn: nil, localOnly: nil)

    public static let focusSession = SyncEntity(
        name: "focusSession", table: "focus_session", keyColumn: "id", singleton: nil,
        groups: [
            Group(
                name: "session",
                fields: [
                    field("start_time", .integer), field("end_time", .integer, optional: true), field("state"),
                    field("duration_ms", .integer),
                    field("paused_ms", .integer), field("planned_ms", .integer), field("paused_at", .integer, optional: true),
                    field("created_at", .integer), field("time_zone"), field("end_day", optional: true), field("clock_uncertain", .bool),
                    // Optional: a Grove from before open-ended sessions sends none (planned).
                    field("open_ended", .bool, optional: true),
                ]),
            // What the session was for: its own clock, so that a retag on one device and the session's end
            // on another both survive (the terminal rule orders only the group that holds the state).
            Group(name: "tags", fields: [field("tags", optional: true)]),
        ],
        rule: .terminal(state: "state", terminalStates: ["completed", "abandoned"], end: "endTime"), stickyDelete: false,
        references: [], bootstrapClockColumn: "created_at", localOnly: nil)

    public static let gatewaySession = SyncEntity(
        name: "gatewaySession", table: "gateway_session", keyColumn: "id", singleton: nil,
        groups: [
            Group(
                name: "session",
                fields: [
                    field("app_id"), field("content_id"), field("start_timestamp", .integer), field("duration_setting", .integer),
                    field("completion_status", optional: true), field("time_spent", .integer), field("action_outcome", optional: true),
                    field("platform"), field("time_zone"), field("local_day"), field("end_timestamp", .integer, optional: true),
                    // Optional: a Grove from before scheduled blocks sends none (no pass used).
                    field("emergency_pass", .bool, optional: true),
                    // Optional: a Grove from before the gate's integrity figures sends none.
                    field("withered_tree", .bool, optional: true),
                ]),
            // The visit after Proceed, reported by the extension after the pause ended: its own clock
            // (the terminal rule orders only the group that holds the state).
            Group(
                name: "visit", fields: [field("visit_seconds", .integer, optional: true), field("grace_visits", .integer, optional: true)]),
        ],
        rule: .terminal(state: "completionStatus", terminalStates: ["completed", "exited", "force_quit", "timeout"], end: "endTimestamp"),
        stickyDelete: false,
        references: [
            Reference(field: "appId", entity: "app", optional: false), Reference(field: "contentId", entity: "content", optional: false),
        ],
        bootstrapClockColumn: "start_timestamp", localOnly: nil)

    /// A gate loosened (`GateChange`): written once, never changed; pruned with pauses after 30 days.
    public static let gateChange = SyncEntity(
        name: "gateChange", table: "gate_change", keyColumn: "id", singleton: nil,
        groups: [
            Group(
                name: "change",
                fields: [field("app_id"), field("kind"), field("timestamp", .integer), field("time_zone"), field("local_day")])
        ],
        rule: .lastWriterWins, stickyDelete: false, references: [Reference(field: "appId", entity: "app", optional: false)],
        bootstrapClockColumn: "timestamp", localOnly: nil)

    /// A restore point made the account's current state (`grove sync restore --apply`): written once
    /// by the device that did it. A device that receives one it has not seen stamps the changes it had
    /// not sent yet again before it applies what the restore wrote, so they land on top of it.
    public static let accountRestore = SyncEntity(
        name: "accountRestore", table: "account_restore", keyColumn: "id", singleton: nil,
        groups: [
            Group(
                name: "restore",
                fields: [field("as_of", .integer), field("applied_at", .integer), field("device_name"), field("rows_changed", .integer)])
        ],
        rule: .lastWriterWins, stickyDelete: false, references: [], bootstrapClockColumn: "applied_at", localOnly: nil)
}
