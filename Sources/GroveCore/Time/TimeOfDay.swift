import Foundation

/// A wall-clock time of day (`HH:mm`), with no date and no zone: when a reminder should fire.
public struct TimeOfDay: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let hour: Int
    public let minute: Int

    /// Returns nil unless 0 ≤ hour ≤ 23 and 0 ≤ minute ≤ 59.
    public init?(hour: Int, minute: Int) {
        guard (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        self.hour = hour
        self.minute = minute
    }

    /// Parses `H:mm` or `HH:mm`.
    public init?(_ string: some StringProtocol) {
        let parts = string.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
            let h = Int(parts[0]), let m = Int(parts[1])
        else { return nil }
        self.init(hour: h, minute: m)
    }

    /// Seconds after local midnight.
    public var secondsIntoDay: Int { hour * 3600 + minute * 60 }

    public var description: String {
        (hour < 10 ? "0\(hour)" : "\(hour)") + ":" + (minute < 10 ? "0\(minute)" : "\(minute)")
    }

    public static func < (lhs: TimeOfDay, rhs: TimeOfDay) -> Bool { lhs.secondsIntoDay < rhs.secondsIntoDay }

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        let string = try container.decode(String.self)
        guard let time = TimeOfDay(string) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "Expected a time as HH:mm, got \(string.quotedForMessage)")
        }
        self = time
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
