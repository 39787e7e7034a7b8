import Foundation
import GroveCore

/// Everything a user has in Grove, as one versioned JSON document (fields named as in the seeds).
public struct GroveExport: Codable, Equatable, Sendable {
    public static let formatName = "grove-export"
    public static let currentVersion = 1

    public var format: String
    public var version: Int
    public var exportedAt: Date
    public var focusSessions: [FocusSession]
    public var focusPreferences: FocusPreferences
    public var timers: [TimerDTO]
    public var apps: [SocialApp]
    public var contents: [MindfulnessContent]
    public var gatewaySessions: [GatewaySession]
    /// Gates loosened in the 30 days kept (`GateChange`); absent from an export by an older Grove.
    public var gateChanges: [GateChange]? = nil
    public var pausePreferences: PausePreferences
    public var themes: [IntentionTheme]
    public var intentions: [Intention]
    public var userPreferences: UserPreferences

    /// The encoder every face uses for Grove JSON: ISO 8601 instants with milliseconds, sorted keys.
    public static func makeEncoder(pretty: Bool = true) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(formatInstant(date))
        }
        return encoder
    }

    /// The matching decoder (accepts ISO 8601 with or without fractional seconds).
    public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let string = try container.decode(String.self)
            guard let date = parseInstant(string) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "Expected an ISO 8601 instant, got \(string.quotedForMessage)")
            }
            return date
        }
        return decoder
    }

    /// `2025-03-09T07:00:00.000Z`.
    public static func formatInstant(_ date: Date) -> String {
        let ms = date.groveMillis
        let seconds = Int64((Double(ms) / 1000).rounded(.down))
        let millis = ms - seconds * 1000
        let day = LocalDay(dayNumber: Int((Double(seconds) / 86_400).rounded(.down)))
        let secondOfDay = Int(seconds - Int64(day.dayNumber) * 86_400)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let msString = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        return "\(day)T\(two(secondOfDay / 3600)):\(two(secondOfDay % 3600 / 60)):\(two(secondOfDay % 60)).\(msString)Z"
    }

    /// Parses RFC 3339 instants, `YYYY-MM-DDTHH:MM:SS[.fff…](Z|±HH:MM)`, strictly (30 February is
    /// refused, not rolled over) and without a formatter: exports hold hundreds of thousands of
    /// instants, and creating a formatter per value made imports a hundred times slower.
    public static func parseInstant(_ string: String) -> Date? {
        // Read in place (no array made per instant: an import parses four a session).
        var string = string
        return string.withUTF8 { parseInstant(utf8: $0) }
    }

    /// `parseInstant(_:)` of the text's UTF-8 bytes.
    static func parseInstant(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        guard bytes.count >= 20, bytes.count <= 40, bytes[4] == 45, bytes[7] == 45, bytes[10] == 84 || bytes[10] == 116, bytes[13] == 58,
            bytes[16] == 58
        else { return nil }
        func digits(_ from: Int, _ count: Int) -> Int? {
            var n = 0
            for i in from..<(from + count) {
                let d = Int(bytes[i]) - 48
                guard (0...9).contains(d) else { return nil }
                n = n * 10 + d
            }
            return n
        }
        guard let year = digits(0, 4), let month = digits(5, 2), let dayOfMonth = digits(8, 2), let hour = digits(11, 2),
            // Year 0000 is no year of the calendar, and a leap second (:60) names no instant a clock here shows.
            let minute = digits(14, 2), let second = digits(17, 2), year >= 1, hour < 24, minute < 60, second < 60,
            let day = LocalDay(year: year, month: month, day: dayOfMonth)
        else { return nil }
        var index = 19
        var millis = 0
        if index < bytes.count, bytes[index] == 46 {
            index += 1
            var scale = 100
            let start = index
            while index < bytes.count, (48...57).contains(bytes[index]) {
                millis += Int(bytes[index] - 48) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        guard index < bytes.count else { return nil }
        var offset = 0
        switch bytes[index] {
        case 90, 122:  // Z
            guard index + 1 == bytes.count else { return nil }
        case 43, 45:  // + or -
            guard index + 6 == bytes.count, bytes[index + 3] == 58, let h = digits(index + 1, 2), let m = digits(index + 4, 2) else {
                return nil
            }
            offset = (h * 3600 + m * 60) * (bytes[index] == 45 ? -1 : 1)
        default:
            return nil
        }
        let seconds = day.dayNumber * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(groveMillis: Int64(seconds) * 1000 + Int64(millis))
    }
}
