import Foundation
import GroveCore
import GroveStore

/// Reads instants and days typed on the command line, in the configured zone.
public enum TimeParsing {
    /// Accepts ISO 8601 with an offset (`2025-03-09T08:00:00-05:00`, `…Z`), `YYYY-MM-DD HH:MM`
    /// (local, configured zone), or `HH:MM` (today, local).
    public static func instant(_ text: String, field: String, now: Date, calendar: ZonedCalendar) throws -> Date {
        let t = text.trimmingCharacters(in: .whitespaces)
        if let date = GroveExport.parseInstant(t) { return date }
        let parts = t.replacingOccurrences(of: "T", with: " ").split(separator: " ")
        if parts.count == 2, let day = LocalDay(parts[0]), let time = TimeOfDay(parts[1]) {
            return calendar.instant(of: day, at: time)
        }
        if parts.count == 1, let time = TimeOfDay(parts[0]) {
            return calendar.instant(of: calendar.localDay(of: now), at: time)
        }
        throw InvalidField(field, "\(field) must be a time like 14:30, 2025-03-09 14:30 or 2025-03-09T14:30:00Z (got \"\(text)\")")
    }

    /// `YYYY-MM-DD`, `today`, `yesterday` or `tomorrow` (the core's rule, as every face reads it).
    public static func day(_ text: String, field: String = "date", today: LocalDay) throws -> LocalDay {
        try LocalDay(validating: text, field: field, today: today)
    }

    /// A duration like `25m`, `90s`, `1h30m`; zero is left to the field's own rule.
    public static func duration(_ text: String, field: String) throws -> TimeInterval {
        try DurationParser.seconds(validating: text, field: field)
    }
}
