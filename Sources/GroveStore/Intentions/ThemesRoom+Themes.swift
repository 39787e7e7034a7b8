import Foundation
import GRDB
import GroveCore

/// Themes and the user's preferences (seed 004): the operations every face calls. The seed's
/// `ThemeRepository` and `UserPreferencesRepository` are thin views over these.
extension AppDatabase {
    static let themeOrder = "is_preset DESC, created_at, id"

    // MARK: Themes

    /// Refuses colours too alike to read: under 4.5:1 unless `allowLowContrast` (the person saw the
    /// warning and keeps them), under 1.5:1 always.
    static func checkContrast(_ theme: IntentionTheme, allowLowContrast: Bool) throws {
        let ratio = theme.contrastRatio
        guard ratio >= (allowLowContrast ? ThemesRoom.absoluteContrast : ThemesRoom.minimumContrast) else {
            throw IntentionValidationError.unreadableTheme(
                ratio: ratio, overridable: !allowLowContrast && ratio >= ThemesRoom.absoluteContrast)
        }
    }

    /// Which themes a list shows.
    public enum ThemeKind: String, Sendable, CaseIterable {
        /// The five bundled themes.
        case preset
        /// Themes the user made by hand (neither preset nor generated).
        case custom
        /// Themes the assistant generated.
        case generated

        /// A kind typed by a person or sent as `?kind=` (any case), or a validation error naming `field`.
        public init(validating text: String, field: String = "kind") throws {
            self = try Self.choosing(text, field: field)
        }

        /// What the kind of `theme` is.
        public init(of theme: IntentionTheme) { self = theme.isPreset ? .preset : theme.isAIGenerated ? .generated : .custom }

        var filter: String {
            switch self {
            case .preset: "is_preset"
            case .custom: "NOT is_preset AND NOT is_ai_generated"
            case .generated: "is_ai_generated"
            }
        }
    }

    // MARK: Preferences

    /// Writes the one row in place (an upsert: only the fields that differ change, so only they
    /// become changes to sync), dropping a row another id left behind.
    static func saveUserPreferences(_ preferences: UserPreferences, _ db: Database) throws {
        try db.cachedExecute("DELETE FROM user_preferences WHERE id <> ?", [preferences.id.uuidString])
        try UserPreferencesRecord(preferences).upsert(db)
    }

    func checkTheme(_ id: UUID?, _ db: Database) throws {
        if let id, try !ThemeRecord.exists(db, key: id.uuidString) { throw IntentionValidationError.unknownTheme(id) }
    }

}

extension ThemesRoom {
    /// Creates a custom (or generated) theme (colours stored as `#RRGGBB`, upper case); text that
    /// cannot be read on its background is refused (see `checkContrast`).
    public func create(_ theme: IntentionTheme, allowLowContrast: Bool = false) throws {
        let theme = theme.normalized
        try theme.validate()
        try AppDatabase.checkContrast(theme, allowLowContrast: allowLowContrast)
        try write { db in
            guard try !ThemeRecord.exists(db, key: theme.id.uuidString) else {
                throw InvalidField("id", "A theme with id \(theme.id.uuidString) already exists")
            }
            try ThemeRecord(theme).insert(db)
        }
    }

    /// Makes and saves a theme from a few words (the offline assistant's palette: the colours and moods
    /// the words name, readable at 4.5:1). Every face calls this one operation.
    ///
    /// `proposal` is a palette a model made: used when it is valid and readable (4.5:1), else the
    /// offline assistant's stands in (a model's bad palette is not the person's error).
    @discardableResult
    public func generate(prompt: String, proposal: IntentionTheme? = nil) throws -> IntentionTheme {
        let words = try ThemesRoom.checkedPrompt(prompt)
        var theme = OfflineAssistant.theme(for: words, id: environment.uuid(), createdAt: environment.now())
        if var proposal {
            proposal.id = theme.id
            proposal.createdAt = theme.createdAt
            proposal.isPreset = false
            proposal.isAIGenerated = true
            proposal = proposal.normalized
            if (try? proposal.validate()) != nil, proposal.contrastRatio >= ThemesRoom.minimumContrast { theme = proposal }
        }
        try create(theme)
        return theme.normalized
    }

    /// The words a theme is made from: present, no NUL, at most 200 characters.
    public static func checkedPrompt(_ prompt: String) throws -> String {
        let words = prompt.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !words.isEmpty else { throw InvalidField("prompt", "Describe the theme in a few words (\"calm ocean morning\")") }
        guard !words.contains("\u{0}") else { throw InvalidField("prompt", "The description cannot contain a NUL character") }
        guard words.count <= 200 else {
            throw InvalidField("prompt", "The description must be at most 200 characters (got \(words.count))")
        }
        return words
    }

    /// Updates a user theme; presets are read-only; colours checked as on creation.
    public func update(_ theme: IntentionTheme, allowLowContrast: Bool = false) throws {
        let theme = theme.normalized
        try theme.validate()
        try AppDatabase.checkContrast(theme, allowLowContrast: allowLowContrast)
        try write { db in
            guard let existing = try ThemeRecord.fetchOne(db, key: theme.id.uuidString)?.theme else {
                throw NotFoundError("theme", theme.id.uuidString)
            }
            guard !existing.isPreset, !theme.isPreset else { throw IntentionValidationError.presetThemeReadOnly }
            try ThemeRecord(theme).update(db)
        }
    }

    /// Changes a user theme in one transaction (read, change, check, write), returning it as stored:
    /// `PUT /api/v1/themes/:id` and `grove theme edit` alike. Presets are read-only; colours under
    /// 4.5:1 are refused unless `allowLowContrast` (never under 1.5:1).
    @discardableResult
    public func edit(id: UUID, allowLowContrast: Bool = false, _ change: (inout IntentionTheme) -> Void) throws -> IntentionTheme {
        try write { db in
            guard let existing = try ThemeRecord.fetchOne(db, key: id.uuidString)?.theme else {
                throw NotFoundError("theme", id.uuidString)
            }
            guard !existing.isPreset else { throw IntentionValidationError.presetThemeReadOnly }
            var edited = existing
            change(&edited)
            edited.id = existing.id
            edited.isPreset = false
            let theme = edited.normalized
            try theme.validate()
            try AppDatabase.checkContrast(theme, allowLowContrast: allowLowContrast)
            try ThemeRecord(theme).update(db)
            return theme
        }
    }

    /// Deletes a user theme; intentions shown in it fall back to the default.
    public func delete(id: UUID) throws {
        try write { db in
            guard let existing = try ThemeRecord.fetchOne(db, key: id.uuidString)?.theme else {
                throw NotFoundError("theme", id.uuidString)
            }
            guard !existing.isPreset else { throw IntentionValidationError.presetThemeReadOnly }
            try ThemeRecord.deleteOne(db, key: id.uuidString)
        }
    }

    /// Presets first, then by creation date; only `kind` when given.
    public func all(_ kind: AppDatabase.ThemeKind? = nil) throws -> [IntentionTheme] {
        try writer.snapshotRead { db in
            let request = kind.map { ThemeRecord.filter(sql: $0.filter) } ?? ThemeRecord.all()
            return try request.order(sql: AppDatabase.themeOrder).fetchAll(db).map(\.theme)
        }
    }

    /// The theme with this id, or nil.
    public func find(id: UUID) throws -> IntentionTheme? {
        try writer.snapshotRead { db in try ThemeRecord.fetchOne(db, key: id.uuidString)?.theme }
    }

    /// Whether a preset with this name exists (case-insensitive).
    public func presetExists(name: String) throws -> Bool {
        try writer.snapshotRead { db in
            try ThemeRecord.filter(sql: "is_preset AND lower(name) = lower(?)", arguments: [name]).fetchCount(db) > 0
        }
    }

    /// Installs the five presets if missing (idempotent; opening the store does this too).
    public func installPresets() throws {
        try write { db in for theme in PresetThemes.getAll() { try ThemeRecord(theme).insert(db, onConflict: .ignore) } }
    }

    /// The font cards are drawn in when neither the intention nor its theme names one; nil or blank for
    /// the page's own (seed 004's `setDefaultFont`). Every face calls this one operation.
    @discardableResult
    public func setDefaultFont(_ fontName: String?) throws -> UserPreferences {
        let trimmed = fontName?.trimmingCharacters(in: .whitespaces)
        // Named as the seed's parameter, which is also the API body's field.
        if let trimmed, !trimmed.isEmpty, !FontStack.isStorable(trimmed) {
            throw InvalidField("fontName", "fontName must be \(FontStack.rule)")
        }
        return try database.intentions.changePreferences { $0.defaultFont = (trimmed?.isEmpty ?? true) ? nil : trimmed }
    }

    /// The theme intentions without one of their own are shown in; nil for the built-in default.
    @discardableResult
    public func setDefault(_ id: UUID?) throws -> UserPreferences {
        try database.intentions.changePreferences { $0.defaultThemeId = id }
    }
}

extension IntentionsRoom {
    /// The preferences, created with defaults if none exist.
    public func preferences() throws -> UserPreferences {
        if let stored = try storedPreferences() { return stored }
        return try write { db in
            if let existing = try UserPreferencesRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM user_preferences LIMIT 1")) {
                return existing.preferences
            }
            let preferences = UserPreferences()
            try UserPreferencesRecord(preferences).insert(db)
            return preferences
        }
    }

    /// The preferences, or nil when none exist.
    public func storedPreferences() throws -> UserPreferences? {
        try writer.snapshotRead { db in
            try UserPreferencesRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM user_preferences LIMIT 1"))?.preferences
        }
    }

    /// Creates the preferences; refused when they already exist.
    public func createPreferences(_ preferences: UserPreferences) throws {
        try preferences.validate()
        try write { db in
            guard try UserPreferencesRecord.fetchCount(db) == 0 else { throw IntentionValidationError.preferencesAlreadyExist }
            try database.checkTheme(preferences.defaultThemeId, db)
            try UserPreferencesRecord(preferences).insert(db)
        }
    }

    /// Replaces the preferences as a whole (validated). Faces change single fields with
    /// `intentions.changePreferences` instead: a whole copy may be stale.
    @discardableResult
    public func replacePreferences(_ preferences: UserPreferences) throws -> UserPreferences {
        try preferences.validate()
        return try write { db in
            var stored = preferences
            // The one row keeps its id whatever the body says.
            stored.id =
                try String.fetchOne(db.cachedStatement(sql: "SELECT id FROM user_preferences LIMIT 1")).flatMap(UUID.init(uuidString:))
                ?? UserPreferences.singletonID
            try database.checkTheme(stored.defaultThemeId, db)
            try AppDatabase.saveUserPreferences(stored, db)
            return stored
        }
    }

    /// Deletes the preferences (the next read recreates the defaults).
    public func deletePreferences(id: UUID) throws {
        try write { db in _ = try UserPreferencesRecord.deleteOne(db, key: id.uuidString) }
    }

    /// Changes some fields in one transaction: a change made meanwhile to another field (another tab,
    /// the CLI) is kept, never overwritten by a stale copy. Returns the preferences as saved.
    @discardableResult
    public func changePreferences(_ change: (inout UserPreferences) throws -> Void) throws -> UserPreferences {
        try write { db in
            var preferences =
                try UserPreferencesRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM user_preferences LIMIT 1"))?.preferences
                ?? UserPreferences()
            let probe = preferences.syncProbe
            try change(&preferences)
            try preferences.validate()
            try database.checkTheme(preferences.defaultThemeId, db)
            try AppDatabase.saveUserPreferences(preferences, db)
            try SyncChoice.record(
                db, .userPreferences, id: "", fields: SyncChoice.assigned(by: change, probe: probe, fields: UserPreferences.syncFields))
            return preferences
        }
    }

    /// Every enabled reminder's next fire instant after now, soonest first.
    public func upcomingReminders() throws -> [(kind: ReminderKind, at: Date)] {
        ReminderSchedule.upcoming(
            settings: try preferences().notificationSettings, after: environment.now(), calendar: try database.calendar())
    }
}
