import Foundation

/// Seed 004's preferences singleton, with Grove's calendar settings.
public struct UserPreferences: Equatable, Sendable, Codable {
    /// The one id every device uses for the singleton.
    public static let singletonID = UUID(uuidString: "6A0F0000-0000-4000-8000-00000000FFFF")!

    public var id: UUID
    public var onboardingCompleted: Bool
    public var defaultThemeId: UUID?
    public var defaultFont: String?
    public var notificationSettings: NotificationSettings
    /// IANA zone for "today", streaks and reminders; nil follows the system.
    public var timeZoneIdentifier: String?
    /// First day of the week, Sunday = 0 … Saturday = 6 (default Monday, ISO 8601).
    public var firstWeekday: Int

    public init(
        id: UUID = UserPreferences.singletonID, onboardingCompleted: Bool = false, defaultThemeId: UUID? = nil, defaultFont: String? = nil,
        notificationSettings: NotificationSettings = .default, timeZoneIdentifier: String? = nil, firstWeekday: Int = 1
    ) {
        self.id = id
        self.onboardingCompleted = onboardingCompleted
        self.defaultThemeId = defaultThemeId
        self.defaultFont = defaultFont
        self.notificationSettings = notificationSettings
        self.timeZoneIdentifier = timeZoneIdentifier
        self.firstWeekday = firstWeekday
    }

    public func validate() throws(IntentionValidationError) {
        try notificationSettings.validate()
        if let defaultFont, !FontStack.isStorable(defaultFont) { throw .invalidFont(field: "defaultFont") }
        if let timeZoneIdentifier, ZonedCalendar.zone(timeZoneIdentifier) == nil { throw .unknownTimeZone(timeZoneIdentifier) }
        guard NotificationSettings.weekdays.contains(firstWeekday) else { throw .firstWeekday(firstWeekday) }
    }

    /// The calendar these preferences describe; `system` fills in when no zone is configured.
    public func calendar(system: TimeZone) -> ZonedCalendar {
        ZonedCalendar(timeZone: timeZoneIdentifier.flatMap(ZonedCalendar.zone) ?? system, firstWeekday: firstWeekday)
    }
}

/// When to remind the user to set intentions (seed 004).
public struct NotificationSettings: Equatable, Sendable, Codable {
    /// The days of a week as Grove stores them everywhere (the store's CHECKs, the core's rules, the sync
    /// server's value rules): Sunday = 0 … Saturday = 6.
    public static let weekdays: ClosedRange<Int> = 0...6
    /// The days of a month a monthly reminder may name.
    public static let monthDays: ClosedRange<Int> = 1...31

    public var dailyEnabled: Bool
    public var dailyTime: TimeOfDay?
    public var weeklyEnabled: Bool
    public var weeklyTime: TimeOfDay?
    /// Sunday = 0 … Saturday = 6.
    public var weeklyDay: Int
    public var monthlyEnabled: Bool
    public var monthlyTime: TimeOfDay?
    /// 1…31; days past a month's end fall on its last day.
    public var monthlyDay: Int

    public static let `default` = NotificationSettings(
        dailyEnabled: false, dailyTime: TimeOfDay(hour: 8, minute: 0), weeklyEnabled: false, weeklyTime: TimeOfDay(hour: 9, minute: 0),
        weeklyDay: 1, monthlyEnabled: false, monthlyTime: TimeOfDay(hour: 9, minute: 0), monthlyDay: 1)

    public init(
        dailyEnabled: Bool, dailyTime: TimeOfDay?, weeklyEnabled: Bool, weeklyTime: TimeOfDay?, weeklyDay: Int,
        monthlyEnabled: Bool, monthlyTime: TimeOfDay?, monthlyDay: Int
    ) {
        self.dailyEnabled = dailyEnabled
        self.dailyTime = dailyTime
        self.weeklyEnabled = weeklyEnabled
        self.weeklyTime = weeklyTime
        self.weeklyDay = weeklyDay
        self.monthlyEnabled = monthlyEnabled
        self.monthlyTime = monthlyTime
        self.monthlyDay = monthlyDay
    }

    public func validate() throws(IntentionValidationError) {
        guard Self.weekdays.contains(weeklyDay) else { throw .weeklyDay(weeklyDay) }
        guard Self.monthDays.contains(monthlyDay) else { throw .monthlyDay(monthlyDay) }
        if dailyEnabled && dailyTime == nil { throw .missingReminderTime("dailyTime") }
        if weeklyEnabled && weeklyTime == nil { throw .missingReminderTime("weeklyTime") }
        if monthlyEnabled && monthlyTime == nil { throw .missingReminderTime("monthlyTime") }
    }
}
