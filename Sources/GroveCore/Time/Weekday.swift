import Foundation

/// A day of the week, numbered as Grove stores it: Sunday = 0 … Saturday = 6 (`weeklyDay`,
/// `firstWeekday`, `LocalDay.weekday`). The one vocabulary of day names every face uses.
public enum Weekday: Int, CaseIterable, Sendable, Codable {
    case sunday, monday, tuesday, wednesday, thursday, friday, saturday

    /// "Monday".
    public var name: String {
        switch self {
        case .sunday: "Sunday"
        case .monday: "Monday"
        case .tuesday: "Tuesday"
        case .wednesday: "Wednesday"
        case .thursday: "Thursday"
        case .friday: "Friday"
        case .saturday: "Saturday"
        }
    }

    /// "Mon".
    public var shortName: String { String(name.prefix(3)) }

    /// The day `number` (0–6, Sunday = 0) names; any other number wraps around the week.
    public init(wrapping number: Int) {
        self = Weekday(rawValue: ((number % 7) + 7) % 7) ?? .sunday
    }

    /// A day typed by a person: `mon`, `Monday`, `0`–`6` (Sunday = 0); or a validation error naming `field`.
    public init(parsing text: String, field: String) throws {
        let lower = text.trimmingCharacters(in: .whitespaces).lowercased()
        if let n = Int(lower), let day = Weekday(rawValue: n) {
            self = day
        } else if lower.count >= 3, let day = Weekday.allCases.first(where: { $0.name.lowercased().hasPrefix(lower) }) {
            self = day
        } else {
            throw InvalidField(field, "\(field) must be a day like mon or 0–6 with Sunday = 0 (got \(text.quotedForMessage))")
        }
    }
}
