import Foundation
import GroveCore

/// The formats Grove exports to, with their media type and file extension.
public enum ExportFormat: String, CaseIterable, Sendable {
    /// Everything, as Grove's versioned JSON document (importable).
    case json
    /// Focus sessions as CSV (RFC 4180).
    case csv
    /// Focus sessions as an iCalendar file.
    case ics

    public var contentType: String {
        switch self {
        case .json: "application/json; charset=utf-8"
        case .csv: "text/csv; charset=utf-8"
        case .ics: "text/calendar; charset=utf-8"
        }
    }

    /// The format named `name` (any case), or a validation error naming `field`.
    public init(validating name: String, field: String = "format") throws {
        self = try Self.choosing(name, field: field)
    }
}
