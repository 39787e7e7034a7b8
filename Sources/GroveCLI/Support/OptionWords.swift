import GroveCore

/// The CLI's words for the core's fields. A rule of the core names the field as the JSON API and
/// the seeds do (`monthlyDay must be 1-31`); at the command line a person typed an option, so the
/// message names that instead, as every CLI message does (`monthly must be 1-31`, like `length must be …`).
enum OptionWords {
    /// JSON field → the option a person types for it.
    static let options: [String: String] = [
        "dailyTime": "daily", "weeklyTime": "weekly", "weeklyDay": "weekly", "monthlyTime": "monthly", "monthlyDay": "monthly",
        "firstWeekday": "week-starts", "dailyReminder": "daily", "durationInSeconds": "duration", "colorHex": "color",
        "fontName": "font", "customFont": "font", "defaultFont": "font", "textColor": "text", "backgroundColor": "background",
        "accentColor": "accent", "focusDuration": "focus", "shortBreakDuration": "short-break", "longBreakDuration": "long-break",
        "longBreakInterval": "long-break-every", "timerDuration": "duration", "plannedDuration": "length",
    ]

    /// `message` with its leading field named as the command line names it.
    static func message(_ error: any GroveValidationError) -> String {
        guard let option = options[error.field], error.message.hasPrefix(error.field + " ") else { return error.message }
        return option + error.message.dropFirst(error.field.count)
    }
}
