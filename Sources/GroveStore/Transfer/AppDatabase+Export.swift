import Foundation
import GRDB
import GroveCore

extension AppDatabase {
    /// Everything in the store, in a stable order.
    public func export() throws -> GroveExport {
        try writer.read { db in
            let timers = try TimerRecord.order(sql: "created_at, id").fetchAll(db)
            let todos = Dictionary(grouping: try TodoItemRecord.order(sql: "sort_order, id").fetchAll(db), by: \.timerId)
            return GroveExport(
                format: GroveExport.formatName, version: GroveExport.currentVersion, exportedAt: environment.now(),
                focusSessions: try FocusSessionRecord.order(sql: "start_time, id").fetchAll(db).map { try $0.model() },
                focusPreferences: try focusPreferences(db),
                timers: timers.map { TimerDTO(from: $0.model(todos: (todos[$0.id] ?? []).map(\.model))) },
                apps: try SocialAppRecord.order(sql: "sort_order, id").fetchAll(db).map(\.app),
                contents: try ContentRecord.order(sql: "id").fetchAll(db).map(\.content),
                gatewaySessions: try GatewaySessionRecord.order(sql: "start_timestamp, id").fetchAll(db).map(\.session),
                pausePreferences: try pausePreferences(db),
                themes: try ThemeRecord.order(sql: "is_preset DESC, created_at, id").fetchAll(db).map(\.theme),
                intentions: try IntentionRecord.order(sql: "date, created_at, id").fetchAll(db).map(\.intention),
                userPreferences: try UserPreferencesRecord.fetchOne(db, sql: "SELECT * FROM user_preferences LIMIT 1")?.preferences ?? UserPreferences())
        }
    }

    /// The export as JSON bytes.
    public func exportJSON() throws -> Data { try export(as: .json) }

    /// Reads an export and merges it into the store: rows are matched by id and replaced; nothing is
    /// deleted. Every item is validated first; on any error nothing changes.
    public func importJSON(_ data: Data) throws {
        let export: GroveExport
        do {
            export = try GroveExport.makeDecoder().decode(GroveExport.self, from: data)
        } catch let error as DecodingError {
            throw StoreError.unreadableExport(Self.describe(error))
        }
        try importExport(export)
    }

    /// Merges a decoded export (see `importJSON`).
    public func importExport(_ export: GroveExport) throws {
        guard export.format == GroveExport.formatName else { throw StoreError.unreadableExport("not a Grove export (format \"\(export.format)\")") }
        guard export.version <= GroveExport.currentVersion else { throw StoreError.unsupportedExportVersion(export.version) }
        // Validate everything before writing anything: each item by its rules, ids unique within each
        // list, and every reference resolvable in the file or the store.
        try Self.checkUnique(export.focusSessions.map(\.id.uuidString), "focusSessions")
        try Self.checkUnique(export.timers.map(\.id.uuidString), "timers")
        try Self.checkUnique(export.timers.flatMap { $0.todoItems.map(\.id.uuidString) }, "todoItems")
        try Self.checkUnique(export.apps.map(\.id), "apps")
        try Self.checkUnique(export.contents.map(\.id), "contents")
        try Self.checkUnique(export.gatewaySessions.map(\.id.uuidString), "gatewaySessions")
        try Self.checkUnique(export.themes.map(\.id.uuidString), "themes")
        try Self.checkUnique(export.intentions.map(\.id.uuidString), "intentions")
        guard export.focusSessions.filter(\.state.isOpen).count <= 1 else {
            throw InvalidField("focusSessions", "An export can hold at most one active or paused session")
        }
        try export.focusSessions.validateAsStored()
        try export.focusPreferences.validate()
        let timers = try export.timers.map { try $0.toModel() }
        for app in export.apps { try app.validate() }
        for content in export.contents { try content.validate() }
        try export.pausePreferences.validate()
        for theme in export.themes { try theme.validate() }
        for intention in export.intentions { try intention.validate() }
        try export.userPreferences.validate()
        for session in export.gatewaySessions { try session.checkConsistency() }
        let appIDs = Set(export.apps.map(\.id)), contentIDs = Set(export.contents.map(\.id))
        let themeIDs = Set(export.themes.map(\.id))
        try write { db in
            func themeExists(_ id: UUID) throws -> Bool { try themeIDs.contains(id) || ThemeRecord.exists(db, key: id.uuidString) }
            for (index, intention) in export.intentions.enumerated() {
                if let themeId = intention.themeId, try !themeExists(themeId) {
                    throw InvalidField("intentions[\(index)].themeId", "No theme with id \(themeId.uuidString)")
                }
            }
            if let themeId = export.userPreferences.defaultThemeId, try !themeExists(themeId) {
                throw InvalidField("userPreferences.defaultThemeId", "No theme with id \(themeId.uuidString)")
            }
            let knownApps = appIDs.union(try String.fetchAll(db, sql: "SELECT id FROM social_app"))
            if let unknown = export.pausePreferences.enabledApps.subtracting(knownApps).sorted().first {
                throw PauseValidationError.unknownApp(unknown)
            }
            let enabledAfter = knownApps.filter { export.pausePreferences.enabledApps.contains($0) }.count
            guard enabledAfter <= PausePreferences.maxEnabledApps else { throw PauseValidationError.tooManyEnabledApps(enabledAfter) }
            for timer in timers { try checkTodoOwnership(timer, db) }
            for app in export.apps { try SocialAppRecord(app).upsert(db) }
            for content in export.contents { try ContentRecord(content).upsert(db) }
            for session in export.gatewaySessions {
                try session.validate(appExists: { appIDs.contains($0) || (try? SocialAppRecord.exists(db, key: $0)) == true },
                                     contentExists: { contentIDs.contains($0) || (try? ContentRecord.exists(db, key: $0)) == true })
                try GatewaySessionRecord(session).upsert(db)
            }
            try PausePreferencesRecord(export.pausePreferences).upsert(db)
            try db.execute(sql: "UPDATE social_app SET is_enabled = 0 WHERE is_enabled")
            for id in export.pausePreferences.enabledApps {
                try db.execute(sql: "UPDATE social_app SET is_enabled = 1 WHERE id = ?", arguments: [id])
            }
            try upsertFocusSessions(export.focusSessions, db)
            try FocusPreferencesRecord(export.focusPreferences).upsert(db)
            for timer in timers { try saveTimer(timer, db) }
            for theme in export.themes { try ThemeRecord(theme).upsert(db) }
            for intention in export.intentions { try IntentionRecord(intention).upsert(db) }
            try db.execute(sql: "DELETE FROM user_preferences")
            try UserPreferencesRecord(export.userPreferences).insert(db)
        }
    }

    /// Throws when `ids` holds one twice: a file that names an item twice cannot say which is meant.
    static func checkUnique(_ ids: [String], _ field: String) throws {
        var seen = Set<String>()
        for id in ids where !seen.insert(id).inserted { throw InvalidField(field, "\(field) has id \(id) more than once") }
    }

    /// Above this many sessions, an import rebuilds the per-day totals once instead of letting the
    /// triggers update them row by row.
    static let bulkThreshold = 5_000

    /// Upserts sessions with one prepared statement; `ON CONFLICT DO UPDATE` (not REPLACE) so that
    /// the per-day totals' update triggers fire. Large batches set the triggers aside for the
    /// transaction and rebuild `focus_day` with one GROUP BY: the same result, several times faster.
    func upsertFocusSessions(_ sessions: [FocusSession], _ db: Database) throws {
        guard sessions.count >= Self.bulkThreshold else { return try upsertFocusSessionRows(sessions, db) }
        // The triggers' own SQL, read back from the schema, so that this never drifts from the migrations.
        let triggers = try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'focus_session'")
        let names = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'focus_session'")
        for name in names { try db.execute(sql: "DROP TRIGGER \(name)") }
        try upsertFocusSessionRows(sessions, db)
        try db.execute(sql: """
            DELETE FROM focus_day;
            INSERT INTO focus_day (day, trees, abandoned, focus_ms)
            SELECT end_day, sum(state = 'completed'), sum(state = 'abandoned'),
                   sum(CASE WHEN state = 'completed' THEN duration_ms ELSE 0 END)
            FROM focus_session WHERE end_day IS NOT NULL GROUP BY end_day;
            """)
        for sql in triggers { try db.execute(sql: sql) }
    }

    private func upsertFocusSessionRows(_ sessions: [FocusSession], _ db: Database) throws {
        let statement = try db.makeStatement(sql: """
            INSERT INTO focus_session (id, start_time, end_time, state, duration_ms, paused_ms, planned_ms, paused_at, created_at,
                time_zone, end_day, clock_uncertain)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET start_time = excluded.start_time, end_time = excluded.end_time, state = excluded.state,
                duration_ms = excluded.duration_ms, paused_ms = excluded.paused_ms, planned_ms = excluded.planned_ms,
                paused_at = excluded.paused_at, created_at = excluded.created_at, time_zone = excluded.time_zone,
                end_day = excluded.end_day, clock_uncertain = excluded.clock_uncertain
            """)
        // Bound straight through SQLite's C API: boxing twelve values a row into StatementArguments
        // costs as much as the insert itself.
        let bulk = BulkStatement(statement.sqliteStatement, connection: db.sqliteConnection)
        for s in sessions {
            bulk.reset()
            bulk.bind(1, s.id.uuidString)
            bulk.bind(2, s.startTime.groveMillis)
            bulk.bind(3, s.endTime?.groveMillis)
            bulk.bind(4, s.state.rawValue)
            bulk.bind(5, s.duration.groveMillis)
            bulk.bind(6, s.pausedDuration.groveMillis)
            bulk.bind(7, s.plannedDuration.groveMillis)
            bulk.bind(8, s.pausedAt?.groveMillis)
            bulk.bind(9, s.createdAt.groveMillis)
            bulk.bind(10, s.timeZoneIdentifier)
            bulk.bind(11, s.endDay?.description)
            bulk.bind(12, s.clockUncertain ? 1 : 0)
            do {
                try bulk.step()
            } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT && (error.message ?? "").contains("focus_session_one_open") {
                throw FocusError.sessionAlreadyOpen
            }
        }
        bulk.reset()
    }

    /// Focus sessions as CSV (RFC 4180), oldest first: one row per session, durations in seconds.
    public func exportFocusSessionsCSV() throws -> String { String(decoding: try export(as: .csv), as: UTF8.self) }

    /// Completed and abandoned focus sessions as an iCalendar file (RFC 5545), for any calendar app.
    public func exportFocusSessionsICS() throws -> String { String(decoding: try export(as: .ics), as: UTF8.self) }

    static func seconds(_ t: TimeInterval) -> String {
        t == t.rounded() ? String(Int(t)) : String(format: "%.3f", t)
    }

    static func csvField(_ field: String) -> String {
        field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
            ? "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : field
    }

    public static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined()
        }
        switch error {
        case .keyNotFound(let key, let context): return "missing field \(path(context)).\(key.stringValue)"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return "\(path(context)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }
}
