import Foundation
import GRDB
import GroveCore

/// Seed 004's theme repository over the store.
public struct ThemeRepository: Sendable {
    public let database: AppDatabase
    public init(database: AppDatabase) { self.database = database }

    private var writer: any DatabaseWriter { database.writer }
    private static let order = "is_preset DESC, created_at, id"

    /// Creates a custom (or generated) theme (colours stored as `#RRGGBB`, upper case).
    public func create(_ theme: IntentionTheme) throws {
        let theme = theme.normalized
        try theme.validate()
        try database.write { db in
            guard try !ThemeRecord.exists(db, key: theme.id.uuidString) else { throw InvalidField("id", "A theme with id \(theme.id.uuidString) already exists") }
            try ThemeRecord(theme).insert(db)
        }
    }

    /// Presets first, then by creation date.
    public func getAll() throws -> [IntentionTheme] {
        try writer.read { db in try ThemeRecord.order(sql: Self.order).fetchAll(db).map(\.theme) }
    }

    /// Updates a user theme; presets are read-only.
    public func update(_ theme: IntentionTheme) throws {
        let theme = theme.normalized
        try theme.validate()
        try database.write { db in
            guard let existing = try ThemeRecord.fetchOne(db, key: theme.id.uuidString)?.theme else { throw NotFoundError("theme", theme.id.uuidString) }
            guard !existing.isPreset, !theme.isPreset else { throw IntentionValidationError.presetThemeReadOnly }
            try ThemeRecord(theme).update(db)
        }
    }

    /// Deletes a user theme; intentions shown in it fall back to the default.
    public func delete(_ theme: IntentionTheme) throws {
        try database.write { db in
            guard let existing = try ThemeRecord.fetchOne(db, key: theme.id.uuidString)?.theme else { throw NotFoundError("theme", theme.id.uuidString) }
            guard !existing.isPreset else { throw IntentionValidationError.presetThemeReadOnly }
            try ThemeRecord.deleteOne(db, key: theme.id.uuidString)
        }
    }

    public func getPresetThemes() throws -> [IntentionTheme] { try filtered("is_preset") }
    /// Themes the user made by hand (neither preset nor generated).
    public func getCustomThemes() throws -> [IntentionTheme] { try filtered("NOT is_preset AND NOT is_ai_generated") }
    public func getAIGeneratedThemes() throws -> [IntentionTheme] { try filtered("is_ai_generated") }

    public func getTheme(byId id: UUID) throws -> IntentionTheme? {
        try writer.read { db in try ThemeRecord.fetchOne(db, key: id.uuidString)?.theme }
    }

    /// Whether a preset with this name exists (case-insensitive).
    public func presetThemeExists(name: String) throws -> Bool {
        try writer.read { db in try ThemeRecord.filter(sql: "is_preset AND lower(name) = lower(?)", arguments: [name]).fetchCount(db) > 0 }
    }

    /// Installs the five presets if missing (idempotent; `AppDatabase` does this on open).
    public func populatePresetThemes() throws {
        try database.write { db in for theme in PresetThemes.getAll() { try ThemeRecord(theme).insert(db, onConflict: .ignore) } }
    }

    private func filtered(_ sql: String) throws -> [IntentionTheme] {
        try writer.read { db in try ThemeRecord.filter(sql: sql).order(sql: Self.order).fetchAll(db).map(\.theme) }
    }
}

/// Seed 004's preferences repository: the singleton and its convenience setters.
public struct UserPreferencesRepository: Sendable {
    public let database: AppDatabase
    public init(database: AppDatabase) { self.database = database }

    private var writer: any DatabaseWriter { database.writer }

    /// The preferences, created with defaults if none exist.
    public func getOrCreatePreferences() throws -> UserPreferences {
        try database.write { db in
            if let existing = try UserPreferencesRecord.fetchOne(db, sql: "SELECT * FROM user_preferences LIMIT 1") { return existing.preferences }
            let preferences = UserPreferences()
            try UserPreferencesRecord(preferences).insert(db)
            return preferences
        }
    }

    /// The preferences, or nil when none exist.
    public func getPreferences() throws -> UserPreferences? {
        try writer.read { db in try UserPreferencesRecord.fetchOne(db, sql: "SELECT * FROM user_preferences LIMIT 1")?.preferences }
    }

    /// Creates the preferences; throws if they already exist.
    public func create(_ preferences: UserPreferences) throws {
        try preferences.validate()
        try database.write { db in
            guard try UserPreferencesRecord.fetchCount(db) == 0 else { throw IntentionValidationError.preferencesAlreadyExist }
            try checkTheme(preferences.defaultThemeId, db)
            try UserPreferencesRecord(preferences).insert(db)
        }
    }

    /// Replaces the preferences (validated).
    public func update(_ preferences: UserPreferences) throws {
        try preferences.validate()
        try database.write { db in
            try checkTheme(preferences.defaultThemeId, db)
            try db.execute(sql: "DELETE FROM user_preferences WHERE id <> ?", arguments: [preferences.id.uuidString])
            try UserPreferencesRecord(preferences).upsert(db)
        }
    }

    public func delete(_ preferences: UserPreferences) throws {
        try database.write { db in _ = try UserPreferencesRecord.deleteOne(db, key: preferences.id.uuidString) }
    }

    public func markOnboardingCompleted() throws { try modify { $0.onboardingCompleted = true } }
    public func setDefaultTheme(_ themeId: UUID?) throws { try modify { $0.defaultThemeId = themeId } }
    public func setDefaultFont(_ fontName: String?) throws { try modify { $0.defaultFont = fontName } }
    public func updateNotificationSettings(_ settings: NotificationSettings) throws { try modify { $0.notificationSettings = settings } }

    /// Sets the zone of "today" and reminders (nil follows the system) and the week's first day.
    public func setCalendar(timeZoneIdentifier: String?, firstWeekday: Int? = nil) throws {
        try modify {
            $0.timeZoneIdentifier = timeZoneIdentifier
            if let firstWeekday { $0.firstWeekday = firstWeekday }
        }
    }

    /// Changes some fields in one transaction: a change made meanwhile to another field (another tab,
    /// the CLI) is kept, never overwritten by a stale copy.
    @discardableResult
    public func modify(_ change: (inout UserPreferences) -> Void) throws -> UserPreferences {
        try database.write { db in
            var preferences = try UserPreferencesRecord.fetchOne(db, sql: "SELECT * FROM user_preferences LIMIT 1")?.preferences ?? UserPreferences()
            change(&preferences)
            try preferences.validate()
            try checkTheme(preferences.defaultThemeId, db)
            try db.execute(sql: "DELETE FROM user_preferences WHERE id <> ?", arguments: [preferences.id.uuidString])
            try UserPreferencesRecord(preferences).upsert(db)
            return preferences
        }
    }

    private func checkTheme(_ id: UUID?, _ db: Database) throws {
        if let id, try !ThemeRecord.exists(db, key: id.uuidString) { throw IntentionValidationError.unknownTheme(id) }
    }
}

extension AppDatabase {
    /// Every enabled reminder's next fire instant after now, soonest first.
    public func upcomingReminders() throws -> [(kind: ReminderKind, at: Date)] {
        let preferences = try UserPreferencesRepository(database: self).getOrCreatePreferences()
        return ReminderSchedule.upcoming(settings: preferences.notificationSettings, after: environment.now(), calendar: try calendar())
    }
}
