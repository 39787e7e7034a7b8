import Foundation
import GRDB
import GroveCore

/// A row of `intention`.
struct IntentionRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "intention"
    var intention: Intention

    init(_ intention: Intention) { self.intention = intention }

    init(row: Row) throws {
        let scopeRaw: String = row["scope"], dateRaw: String = row["date"], theme: String? = row["theme_id"]
        guard let scope = IntentionScope(rawValue: scopeRaw), let date = LocalDay(dateRaw) else {
            throw InvalidField("scope", "Stored intention has an unknown scope or date")
        }
        intention = Intention(
            id: try row.uuid("id"), text: row["text"], scope: scope, date: date,
            createdAt: Date(groveMillis: row["created_at"]), updatedAt: Date(groveMillis: row["updated_at"]),
            themeId: theme.flatMap(UUID.init(uuidString:)), customFont: row["custom_font"],
            aiGenerated: row["ai_generated"], aiRephrased: row["ai_rephrased"], quote: row["quote"])
    }

    func encode(to c: inout PersistenceContainer) {
        c["id"] = intention.id.uuidString; c["text"] = intention.text; c["scope"] = intention.scope.rawValue
        c["date"] = intention.date.description; c["created_at"] = intention.createdAt.groveMillis
        c["updated_at"] = intention.updatedAt.groveMillis; c["theme_id"] = intention.themeId?.uuidString
        c["custom_font"] = intention.customFont; c["ai_generated"] = intention.aiGenerated
        c["ai_rephrased"] = intention.aiRephrased; c["quote"] = intention.quote
    }
}

/// A row of `intention_theme`.
struct ThemeRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "intention_theme"
    var theme: IntentionTheme

    init(_ theme: IntentionTheme) { self.theme = theme }

    init(row: Row) throws {
        theme = IntentionTheme(
            id: try row.uuid("id"), name: row["name"], backgroundColor: row["background_color"],
            textColor: row["text_color"], accentColor: row["accent_color"], fontName: row["font_name"],
            isPreset: row["is_preset"], isAIGenerated: row["is_ai_generated"], createdAt: Date(groveMillis: row["created_at"]))
    }

    func encode(to c: inout PersistenceContainer) {
        c["id"] = theme.id.uuidString; c["name"] = theme.name; c["background_color"] = theme.backgroundColor
        c["text_color"] = theme.textColor; c["accent_color"] = theme.accentColor; c["font_name"] = theme.fontName
        c["is_preset"] = theme.isPreset; c["is_ai_generated"] = theme.isAIGenerated; c["created_at"] = theme.createdAt.groveMillis
    }
}

/// The single row of `user_preferences`.
struct UserPreferencesRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "user_preferences"
    var preferences: UserPreferences

    init(_ preferences: UserPreferences) { self.preferences = preferences }

    init(row: Row) throws {
        let theme: String? = row["default_theme_id"]
        let d: String? = row["daily_time"], w: String? = row["weekly_time"], m: String? = row["monthly_time"]
        let settings = NotificationSettings(
            dailyEnabled: row["daily_enabled"], dailyTime: d.flatMap { TimeOfDay($0) }, weeklyEnabled: row["weekly_enabled"],
            weeklyTime: w.flatMap { TimeOfDay($0) }, weeklyDay: row["weekly_day"], monthlyEnabled: row["monthly_enabled"],
            monthlyTime: m.flatMap { TimeOfDay($0) }, monthlyDay: row["monthly_day"])
        preferences = UserPreferences(
            id: try row.uuid("id"), onboardingCompleted: row["onboarding_completed"],
            defaultThemeId: theme.flatMap(UUID.init(uuidString:)), defaultFont: row["default_font"],
            notificationSettings: settings, timeZoneIdentifier: row["time_zone"], firstWeekday: row["first_weekday"])
    }

    func encode(to c: inout PersistenceContainer) {
        let n = preferences.notificationSettings
        c["id"] = preferences.id.uuidString; c["onboarding_completed"] = preferences.onboardingCompleted
        c["default_theme_id"] = preferences.defaultThemeId?.uuidString; c["default_font"] = preferences.defaultFont
        c["daily_enabled"] = n.dailyEnabled; c["daily_time"] = n.dailyTime?.description
        c["weekly_enabled"] = n.weeklyEnabled; c["weekly_time"] = n.weeklyTime?.description; c["weekly_day"] = n.weeklyDay
        c["monthly_enabled"] = n.monthlyEnabled; c["monthly_time"] = n.monthlyTime?.description; c["monthly_day"] = n.monthlyDay
        c["time_zone"] = preferences.timeZoneIdentifier; c["first_weekday"] = preferences.firstWeekday
    }
}
