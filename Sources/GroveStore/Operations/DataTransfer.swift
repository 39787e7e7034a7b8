import Foundation
import GroveCore

/// What an import brought in, counted per kind: the same summary on every face.
public struct ImportSummary: Codable, Sendable, Equatable {
    public var focusSessions: Int
    public var timers: Int
    public var intentions: Int
    public var gatewaySessions: Int
    public var themes: Int

    /// "Imported 3 focus sessions, 1 timer, 2 intentions, 0 pauses."
    public var sentence: String {
        func count(_ n: Int, _ one: String, _ many: String) -> String { "\(n) \(n == 1 ? one : many)" }
        return "Imported \(count(focusSessions, "focus session", "focus sessions")), \(count(timers, "timer", "timers")), "
            + "\(count(intentions, "intention", "intentions")), \(count(gatewaySessions, "pause", "pauses"))."
    }
}

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

extension TransferRoom {
    /// The store in `format`, as bytes (small stores and tests; faces stream with `export(as:to:)`).
    public func export(as format: ExportFormat) throws -> Data {
        var data = Data()
        try export(as: format) { data.append($0) }
        return data
    }
}
