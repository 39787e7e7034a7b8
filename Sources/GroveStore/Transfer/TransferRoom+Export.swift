import Foundation
import GRDB
import GroveCore

extension AppDatabase {

    /// What validating an export found that writing it needs.
    struct CheckedImport {
        var timers: [NamedTimer]
        var appIDs: Set<String>
        var contentIDs: Set<String>
        var themeIDs: Set<UUID>
    }

    /// Validates everything in an export before anything is written: each item by its rules, ids
    /// unique within each list, at most one open session.
    func checkImport(_ export: GroveExport) throws -> CheckedImport {
        guard export.format == GroveExport.formatName else {
            throw StoreError.unreadableExport("not a Grove export (format \"\(export.format)\")")
        }
        guard export.version <= GroveExport.currentVersion else { throw StoreError.unsupportedExportVersion(export.version) }
        // Validate everything before writing anything: each item by its rules, ids unique within each
        // list, and every reference resolvable in the file or the store.
        try Self.checkUnique(export.focusSessions.map(\.id.uuidString), "focusSessions")
        try Self.checkUnique(export.timers.map(\.id.uuidString), "timers")
        try Self.checkUnique(export.timers.flatMap { $0.todoItems.map(\.id.uuidString) }, "todoItems")
        try Self.checkUnique(export.apps.map(\.id), "apps")
        try Self.checkUnique(export.contents.map(\.id), "contents")
        try Self.checkUnique(export.gatewaySessions.map(\.id.uuidString), "gatewaySessions")
        try Self.checkUnique((export.gateChanges ?? []).map(\.id.uuidString), "gateChanges")
        for change in export.gateChanges ?? [] where ZonedCalendar(identifier: change.timeZoneIdentifier) == nil {
            throw InvalidField("gateChanges", "Unknown time zone \(change.timeZoneIdentifier.quotedForMessage)")
        }
        try Self.checkUnique(export.themes.map(\.id.uuidString), "themes")
        try Self.checkUnique(export.intentions.map(\.id.uuidString), "intentions")
        guard export.focusSessions.filter(\.state.isOpen).count <= 1 else {
            throw InvalidField("focusSessions", "An export can hold at most one active or paused session")
        }
        try export.focusSessions.validateAsStored()
        try export.focusPreferences.validate()
        // The icon by the rule `timer add` and the API apply (a word of the list, stored by its name).
        let timers = try export.timers.enumerated().map { index, timer in
            var model = try timer.toModel()
            model.icon = try TimerIcon.name(validating: model.icon, field: "timers[\(index)].icon")
            return model
        }
        for app in export.apps { try app.validate() }
        for content in export.contents { try content.validate() }
        try export.pausePreferences.validate()
        for theme in export.themes { try theme.validate() }
        for intention in export.intentions { try intention.validate() }
        try export.userPreferences.validate()
        for session in export.gatewaySessions { try session.checkConsistency() }
        return CheckedImport(
            timers: timers, appIDs: Set(export.apps.map(\.id)), contentIDs: Set(export.contents.map(\.id)),
            themeIDs: Set(export.themes.map(\.id)))
    }

    /// Writes a checked export in the caller's transaction, checking every reference against the
    /// file and the store.
    func applyImport(_ export: GroveExport, _ checked: CheckedImport, _ db: Database) throws {
        let timers = checked.timers, appIDs = checked.appIDs, contentIDs = checked.contentIDs, themeIDs = checked.themeIDs
        func themeExists(_ id: UUID) throws -> Bool { try themeIDs.contains(id) || ThemeRecord.exists(db, key: id.uuidString) }
        for (index, intention) in export.intentions.enumerated() {
            if let themeId = intention.themeId, try !themeExists(themeId) {
                throw InvalidField("intentions[\(index)].themeId", "No theme with id \(themeId.uuidString)")
            }
        }
        if let themeId = export.userPreferences.defaultThemeId, try !themeExists(themeId) {
            throw InvalidField("userPreferences.defaultThemeId", "No theme with id \(themeId.uuidString)")
        }
        let knownApps = appIDs.union(try String.fetchAll(db.cachedStatement(sql: "SELECT id FROM social_app")))
        if let unknown = export.pausePreferences.enabledApps.subtracting(knownApps).sorted().first {
            throw PauseValidationError.unknownApp(unknown)
        }
        let enabledAfter = knownApps.filter { export.pausePreferences.enabledApps.contains($0) }.count
        guard enabledAfter <= PausePreferences.maxEnabledApps else { throw PauseValidationError.tooManyEnabledApps(enabledAfter) }
        for timer in timers { try checkTodoOwnership(timer, db) }
        for app in export.apps { try SocialAppRecord(app).upsert(db) }
        for content in export.contents { try ContentRecord(content).upsert(db) }
        for session in export.gatewaySessions {
            try session.validate(
                appExists: { appIDs.contains($0) || (try? SocialAppRecord.exists(db, key: $0)) == true },
                contentExists: { contentIDs.contains($0) || (try? ContentRecord.exists(db, key: $0)) == true })
            try GatewaySessionRecord(session).upsert(db)
        }
        for change in export.gateChanges ?? [] {
            guard try appIDs.contains(change.appId) || SocialAppRecord.exists(db, key: change.appId) else {
                throw PauseValidationError.unknownApp(change.appId)
            }
            try GateChangeRecord(change).upsert(db)
        }
        try PausePreferencesRecord(export.pausePreferences).upsert(db)
        try Self.switchApps(on: export.pausePreferences.enabledApps, db)
        try upsertFocusSessions(export.focusSessions, db)
        try FocusPreferencesRecord(export.focusPreferences).upsert(db)
        for timer in timers { try saveTimer(timer, db) }
        for theme in export.themes { try ThemeRecord(theme).upsert(db) }
        for intention in export.intentions { try IntentionRecord(intention).upsert(db) }
        // In place (a delete and an insert would make every field, defaults included, a change to sync).
        try Self.saveUserPreferences(export.userPreferences, db)
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
        let writer = try SessionWriter(db)
        if sessions.count >= Self.bulkThreshold { try writer.setTriggersAside() }
        for session in sessions { try writer.upsert(session) }
        try writer.finish()
    }

    static func seconds(_ t: TimeInterval) -> String {
        t == t.rounded() ? String(Int(t)) : String(format: "%.3f", t)
    }

    static func csvField(_ field: String) -> String {
        // A cell a spreadsheet would run as a formula (`=1+1`, `@SUM(…)`, `+`, `-`, a leading tab or
        // carriage return) is made inert with a leading apostrophe, as OWASP advises for CSV exports.
        let inert = field.first.map { "=+-@\t\r".contains($0) } == true ? "'" + field : field
        return inert.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
            ? "\"" + inert.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : inert
    }

}

extension TransferRoom {
    /// Everything in the store, in a stable order.
    public func export() throws -> GroveExport {
        try writer.snapshotRead { db in
            let timers = try TimerRecord.order(sql: "created_at, id").fetchAll(db)
            let todos = Dictionary(grouping: try TodoItemRecord.order(sql: "sort_order, id").fetchAll(db), by: \.timerId)
            return GroveExport(
                format: GroveExport.formatName, version: GroveExport.currentVersion, exportedAt: environment.now(),
                focusSessions: try FocusSessionRecord.order(sql: "start_time, id").fetchAll(db).map { try $0.model() },
                focusPreferences: try database.focusPreferences(db),
                timers: timers.map { TimerDTO(from: $0.model(todos: (todos[$0.id] ?? []).map(\.model))) },
                apps: try SocialAppRecord.order(sql: "sort_order, id").fetchAll(db).map(\.app),
                contents: try ContentRecord.order(sql: "id").fetchAll(db).map(\.content),
                gatewaySessions: try GatewaySessionRecord.order(sql: "start_timestamp, id").fetchAll(db).map(\.session),
                gateChanges: try GateChangeRecord.order(sql: "timestamp, id").fetchAll(db).map(\.change),
                pausePreferences: try database.pausePreferences(db),
                themes: try ThemeRecord.order(sql: "is_preset DESC, created_at, id").fetchAll(db).map(\.theme),
                intentions: try IntentionRecord.order(sql: "date, created_at, id").fetchAll(db).map(\.intention),
                userPreferences: try UserPreferencesRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM user_preferences LIMIT 1"))?
                    .preferences ?? UserPreferences())
        }
    }

    /// The export as JSON bytes.
    public func exportJSON() throws -> Data { try export(as: .json) }

    /// Reads an export and merges it into the store: rows are matched by id and replaced; nothing is
    /// deleted. Every item is validated; on any error nothing changes. (The same streamed reading as
    /// a file's: see `importJSON(streamingFrom:)`.)
    @discardableResult
    public func importJSON(_ data: Data) throws -> ImportSummary {
        var remaining: Data? = data
        return try importJSON {
            defer { remaining = nil }; return remaining.map(Array.init)
        }
    }

    /// Merges a decoded export (see `importJSON`).
    public func importExport(_ export: GroveExport) throws {
        let checked = try database.checkImport(export)
        try write { db in try database.applyImport(export, checked, db) }
    }

    /// Focus sessions as CSV (RFC 4180), oldest first: one row per session, durations in seconds.
    public func focusSessionsCSV() throws -> String { String(decoding: try export(as: .csv), as: UTF8.self) }

    public static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined()
        }
        switch error {
        case .keyNotFound(let key, let context): return "missing field \(path(context)).\(key.stringValue)"
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            // Foundation's words for a document it cannot parse at all ("The given data was not valid JSON").
            let underlying = (context.underlyingError as? NSError)?.userInfo[NSDebugDescriptionErrorKey] as? String
            return "the file is not JSON text in UTF-8" + (underlying.map { " (\($0))" } ?? "")
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return "\(path(context).isEmpty ? "the document" : path(context)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }
}

extension TransferRoom {
    /// The store in `format`, as bytes (small stores and tests; faces stream with `export(as:to:)`).
    public func export(as format: ExportFormat) throws -> Data {
        var data = Data()
        try export(as: format) { data.append($0) }
        return data
    }
}
