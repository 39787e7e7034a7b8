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
    public var pausePreferences: PausePreferences
    public var themes: [IntentionTheme]
    public var intentions: [Intention]
    public var userPreferences: UserPreferences

    /// The encoder every face uses for Grove JSON: ISO 8601 instants with milliseconds, sorted keys.
    public static func makeEncoder(pretty: Bool = true) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
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
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "Expected an ISO 8601 instant, got \"\(string)\"")
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

    /// Parses ISO 8601 instants with a `Z` or `±HH:MM` offset, with or without fractional seconds.
    public static func parseInstant(_ string: String) -> Date? {
        let withFraction = ISO8601DateFormatter()
        withFraction.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = withFraction.date(from: string) { return date.groveRoundedToMillis }
        let plain = ISO8601DateFormatter()
        plain.formatOptions = [.withInternetDateTime]
        return plain.date(from: string)
    }
}
