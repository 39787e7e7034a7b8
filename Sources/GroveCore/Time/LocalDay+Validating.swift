import Foundation

extension LocalDay {
    /// A day typed by a person or sent by a page (`YYYY-MM-DD`), or a validation error naming `field`:
    /// the one reading every face (CLI, API, web) and import share, with the same message.
    public init(validating text: some StringProtocol, field: String) throws {
        guard let day = LocalDay(text) else {
            throw InvalidField(field, "\(field) must be a date like 2025-03-09 (got \(text.quotedForMessage))")
        }
        self = day
    }

    /// As `init(validating:field:)`, and also `today`, `yesterday` or `tomorrow` relative to `today`.
    public init(validating text: some StringProtocol, field: String, today: LocalDay) throws {
        switch text.lowercased() {
        case "today": self = today
        case "yesterday": self = today.adding(days: -1)
        case "tomorrow": self = today.adding(days: 1)
        default: try self.init(validating: text, field: field)
        }
    }
}
