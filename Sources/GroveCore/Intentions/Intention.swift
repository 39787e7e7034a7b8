import Foundation

/// A user's intention for a day, a week or a month (seed 004).
///
/// `date` is the local day the intention was set for; for week and month scopes any day in the
/// period names the period.
public struct Intention: Identifiable, Hashable, Sendable, Codable {
    public var id: UUID
    public var text: String
    public var scope: IntentionScope
    public var date: LocalDay
    public var createdAt: Date
    public var updatedAt: Date
    public var themeId: UUID?
    public var customFont: String?
    public var aiGenerated: Bool
    public var aiRephrased: Bool
    public var quote: String?

    public static let maxTextLength = 500

    public init(
        id: UUID, text: String, scope: IntentionScope, date: LocalDay, createdAt: Date, updatedAt: Date? = nil,
        themeId: UUID? = nil, customFont: String? = nil, aiGenerated: Bool = false, aiRephrased: Bool = false, quote: String? = nil
    ) {
        self.id = id
        self.text = text
        self.scope = scope
        self.date = date
        self.createdAt = createdAt
        self.updatedAt = updatedAt ?? createdAt
        self.themeId = themeId
        self.customFont = customFont
        self.aiGenerated = aiGenerated
        self.aiRephrased = aiRephrased
        self.quote = quote
    }

    public func validate() throws(IntentionValidationError) {
        guard !text.containsNUL else { throw .nulCharacter(field: "text") }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .emptyText }
        guard text.storedLength <= Self.maxTextLength else { throw .textTooLong(text.storedLength) }
        if let quote, quote.containsNUL { throw .nulCharacter(field: "quote") }
        if let quote, quote.storedLength > 1000 { throw .quoteTooLong }
        if let customFont, !FontStack.isStorable(customFont) { throw .invalidFont(field: "customFont") }
    }

    /// Whether this intention covers `day` under `calendar`'s week rule.
    public func covers(_ day: LocalDay, calendar: ZonedCalendar) -> Bool {
        scope.period(containing: date, calendar: calendar).contains(day)
    }
}

/// Day > week > month (seed 004's business logic).
public enum IntentionHierarchy {
    /// The intention to show on `day`: a day intention for that day, else one for its week, else one
    /// for its month. Among several for the same period, the most recently updated wins.
    public static func current(from intentions: some Sequence<Intention>, on day: LocalDay, calendar: ZonedCalendar) -> Intention? {
        var best: Intention?
        for intention in intentions where intention.covers(day, calendar: calendar) {
            guard let b = best else { best = intention; continue }
            if intention.scope < b.scope
                || (intention.scope == b.scope && (intention.updatedAt, intention.id.uuidString) > (b.updatedAt, b.id.uuidString))
            {
                best = intention
            }
        }
        return best
    }

    /// The intention in effect on `day` for each scope, day first: what the pages show as cards (the
    /// first one is `current`; the others are the week and month it sits within).
    public static func layers(from intentions: some Sequence<Intention>, on day: LocalDay, calendar: ZonedCalendar) -> [Intention] {
        let all = Array(intentions)
        return IntentionScope.allCases.sorted().compactMap { scope in
            current(from: all.lazy.filter { $0.scope == scope }, on: day, calendar: calendar)
        }
    }
}

/// Why an intention, theme or preference was refused.
public enum IntentionValidationError: GroveValidationError, Equatable {
    /// The text is empty or only whitespace.
    case emptyText
    /// The text is over 500 characters.
    case textTooLong(Int)
    /// The quote is over 1 000 characters.
    case quoteTooLong
    /// A theme with no name.
    case emptyThemeName
    /// A theme name over 100 characters.
    case themeNameTooLong(Int)
    /// A font field (`customFont`, `fontName`, `defaultFont`) that is neither a stack nor a plain
    /// family name (`FontStack.isStorable`).
    case invalidFont(field: String)
    /// A colour that is not `#RRGGBB`.
    case invalidColor(field: String, value: String)
    /// Preset themes cannot be edited or deleted.
    case presetThemeReadOnly
    /// Text and background too close to read: below WCAG AA's 4.5:1 without the override
    /// (`overridable`), or below 1.5:1 with it.
    case unreadableTheme(ratio: Double, overridable: Bool)
    /// weeklyDay outside 0…6.
    case weeklyDay(Int)
    /// monthlyDay outside 1…31.
    case monthlyDay(Int)
    /// A reminder switched on with no time.
    case missingReminderTime(String)
    /// An unknown IANA time zone.
    case unknownTimeZone(String)
    /// firstWeekday outside 0…6.
    case firstWeekday(Int)
    /// Preferences already exist (seed 004's `create` throws).
    case preferencesAlreadyExist
    /// A reference to a theme that does not exist.
    case unknownTheme(UUID)
    /// Text with a NUL character (SQLite would read it as ending there).
    case nulCharacter(field: String)

    public var field: String {
        switch self {
        case .emptyText, .textTooLong: "text"
        case .quoteTooLong: "quote"
        case .emptyThemeName, .themeNameTooLong: "name"
        case .invalidFont(let field): field
        case .invalidColor(let field, _): field
        case .presetThemeReadOnly: "isPreset"
        case .unreadableTheme: "textColor"
        case .weeklyDay: "weeklyDay"
        case .monthlyDay: "monthlyDay"
        case .missingReminderTime(let field): field
        case .unknownTimeZone: "timeZoneIdentifier"
        case .firstWeekday: "firstWeekday"
        case .preferencesAlreadyExist: "id"
        case .unknownTheme: "themeId"
        case .nulCharacter(let field): field
        }
    }

    public var message: String {
        switch self {
        case .emptyText: "Intention text cannot be empty"
        case .textTooLong(let n): "Intention text cannot exceed 500 characters (got \(n))"
        case .quoteTooLong: "Quote cannot exceed 1000 characters"
        case .emptyThemeName: "Theme name cannot be empty"
        case .themeNameTooLong(let n): "Theme name cannot exceed \(IntentionTheme.maxNameLength) characters (got \(n))"
        case .invalidFont(let field): "\(field) must be \(FontStack.rule)"
        case .invalidColor(let field, let value): "\(field) must be a hex colour like #FFFFFF (got \(value.quotedForMessage))"
        case .presetThemeReadOnly: "Preset themes cannot be changed or deleted"
        case .unreadableTheme(let ratio, let overridable):
            overridable
                ? "Text and background are too alike to read (contrast \(String(format: "%.1f", ratio)):1; 4.5:1 keeps text readable); to keep them anyway, allowLowContrast (--allow-low-contrast)"
                : "Text and background are too alike to read (contrast \(String(format: "%.1f", ratio)):1; nothing under 1.5:1 is saved)"
        case .weeklyDay(let n): "weeklyDay must be 0-6, Sunday = 0 (got \(n))"
        case .monthlyDay(let n): "monthlyDay must be 1-31 (got \(n))"
        case .missingReminderTime(let field): "\(field) is required when the reminder is enabled"
        case .unknownTimeZone(let id): "Unknown time zone \"\(id)\""
        case .firstWeekday(let n): "firstWeekday must be 0-6, Sunday = 0 (got \(n))"
        case .preferencesAlreadyExist: "Preferences already exist"
        case .unknownTheme(let id): "No theme with id \(id.uuidString)"
        case .nulCharacter(let field): "\(field) cannot contain a NUL character"
        }
    }
}
