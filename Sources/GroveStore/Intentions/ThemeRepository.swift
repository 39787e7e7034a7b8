import Foundation
import GroveCore

/// Seed 004's theme repository: the seed's names over `AppDatabase`'s theme operations.
public struct ThemeRepository: Sendable {
    public let database: AppDatabase
    public init(database: AppDatabase) { self.database = database }

    public func create(_ theme: IntentionTheme) throws { try database.themes.create(theme) }
    /// Presets first, then by creation date.
    public func getAll() throws -> [IntentionTheme] { try database.themes.all() }
    public func update(_ theme: IntentionTheme) throws { try database.themes.update(theme) }
    public func delete(_ theme: IntentionTheme) throws { try database.themes.delete(id: theme.id) }
    public func getPresetThemes() throws -> [IntentionTheme] { try database.themes.all(.preset) }
    public func getCustomThemes() throws -> [IntentionTheme] { try database.themes.all(.custom) }
    public func getAIGeneratedThemes() throws -> [IntentionTheme] { try database.themes.all(.generated) }
    public func getTheme(byId id: UUID) throws -> IntentionTheme? { try database.themes.find(id: id) }
    public func presetThemeExists(name: String) throws -> Bool { try database.themes.presetExists(name: name) }
    public func populatePresetThemes() throws { try database.themes.installPresets() }
}

/// Seed 004's preferences repository: the seed's names over `AppDatabase`'s preference operations.
public struct UserPreferencesRepository: Sendable {
    public let database: AppDatabase
    public init(database: AppDatabase) { self.database = database }

    public func getOrCreatePreferences() throws -> UserPreferences { try database.intentions.preferences() }
    public func getPreferences() throws -> UserPreferences? { try database.intentions.storedPreferences() }
    public func create(_ preferences: UserPreferences) throws { try database.intentions.createPreferences(preferences) }
    public func update(_ preferences: UserPreferences) throws { try database.intentions.replacePreferences(preferences) }
    public func delete(_ preferences: UserPreferences) throws { try database.intentions.deletePreferences(id: preferences.id) }
    public func markOnboardingCompleted() throws { try database.intentions.changePreferences { $0.onboardingCompleted = true } }
    public func setDefaultTheme(_ themeId: UUID?) throws { try database.intentions.changePreferences { $0.defaultThemeId = themeId } }
    public func setDefaultFont(_ fontName: String?) throws { try database.intentions.changePreferences { $0.defaultFont = fontName } }
    public func updateNotificationSettings(_ settings: NotificationSettings) throws {
        try database.intentions.changePreferences { $0.notificationSettings = settings }
    }

    /// Sets the zone of "today" and reminders (nil follows the system) and the week's first day.
    public func setCalendar(timeZoneIdentifier: String?, firstWeekday: Int? = nil) throws {
        try database.intentions.changePreferences {
            $0.timeZoneIdentifier = timeZoneIdentifier
            if let firstWeekday { $0.firstWeekday = firstWeekday }
        }
    }
}
