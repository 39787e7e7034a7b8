import Foundation
import GroveCore

/// Seed 004's theme repository: the seed's names over `AppDatabase`'s theme operations.
public struct ThemeRepository: Sendable {
    public let database: AppDatabase
    public init(database: AppDatabase) { self.database = database }

    public func create(_ theme: IntentionTheme) throws { try database.createTheme(theme) }
    /// Presets first, then by creation date.
    public func getAll() throws -> [IntentionTheme] { try database.themes() }
    public func update(_ theme: IntentionTheme) throws { try database.updateTheme(theme) }
    public func delete(_ theme: IntentionTheme) throws { try database.deleteTheme(id: theme.id) }
    public func getPresetThemes() throws -> [IntentionTheme] { try database.themes(.preset) }
    public func getCustomThemes() throws -> [IntentionTheme] { try database.themes(.custom) }
    public func getAIGeneratedThemes() throws -> [IntentionTheme] { try database.themes(.generated) }
    public func getTheme(byId id: UUID) throws -> IntentionTheme? { try database.theme(id: id) }
    public func presetThemeExists(name: String) throws -> Bool { try database.presetThemeExists(name: name) }
    public func populatePresetThemes() throws { try database.installPresetThemes() }
}

/// Seed 004's preferences repository: the seed's names over `AppDatabase`'s preference operations.
public struct UserPreferencesRepository: Sendable {
    public let database: AppDatabase
    public init(database: AppDatabase) { self.database = database }

    public func getOrCreatePreferences() throws -> UserPreferences { try database.userPreferences() }
    public func getPreferences() throws -> UserPreferences? { try database.storedUserPreferences() }
    public func create(_ preferences: UserPreferences) throws { try database.createUserPreferences(preferences) }
    public func update(_ preferences: UserPreferences) throws { try database.replaceUserPreferences(preferences) }
    public func delete(_ preferences: UserPreferences) throws { try database.deleteUserPreferences(id: preferences.id) }
    public func markOnboardingCompleted() throws { try database.changeUserPreferences { $0.onboardingCompleted = true } }
    public func setDefaultTheme(_ themeId: UUID?) throws { try database.changeUserPreferences { $0.defaultThemeId = themeId } }
    public func setDefaultFont(_ fontName: String?) throws { try database.changeUserPreferences { $0.defaultFont = fontName } }
    public func updateNotificationSettings(_ settings: NotificationSettings) throws {
        try database.changeUserPreferences { $0.notificationSettings = settings }
    }

    /// Sets the zone of "today" and reminders (nil follows the system) and the week's first day.
    public func setCalendar(timeZoneIdentifier: String?, firstWeekday: Int? = nil) throws {
        try database.changeUserPreferences {
            $0.timeZoneIdentifier = timeZoneIdentifier
            if let firstWeekday { $0.firstWeekday = firstWeekday }
        }
    }
}
