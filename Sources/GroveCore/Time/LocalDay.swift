import Foundation

/// A calendar day as it was lived somewhere: a proleptic Gregorian year, month and day, with no zone.
///
/// Grove stores the local day beside every instant (`YYYY-MM-DD`) so that "which day did this happen
/// on" never depends on the zone the reader is in. Day arithmetic is done on the day number, never by
/// adding 86 400 seconds to an instant.
public struct LocalDay: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// Creates a day, or returns nil when the components do not name a real Gregorian date.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= LocalDay.daysIn(month: month, year: year) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// A day whose components are known to be valid (computed, never read from input).
    init(validYear year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The first and last days a `YYYY-MM-DD` can name: the widest range a query can ask for.
    public static let earliest = LocalDay(validYear: 1, month: 1, day: 1)
    public static let latest = LocalDay(validYear: 9999, month: 12, day: 31)

    /// Days since 1970-01-01 (negative before it).
    public var dayNumber: Int {
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The day with the given number of days since 1970-01-01.
    public init(dayNumber z0: Int) {
        // Howard Hinnant's civil_from_days.
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.year = yoe + era * 400 + (m <= 2 ? 1 : 0)
        self.month = m
        self.day = d
    }

    /// Parses `YYYY-MM-DD`.
    ///
    /// Inlinable, and reading the bytes as they come: imports parse a million of these, and the
    /// generic form called across modules (with an array made per call) cost more than the rest of
    /// the day's handling.
    @inlinable
    public init?(_ string: some StringProtocol) {
        var fields = (year: 0, month: 0, day: 0)
        var count = 0
        for byte in string.utf8 {
            switch count {
            case 4, 7: guard byte == UInt8(ascii: "-") else { return nil }
            case 0..<10:
                guard (48...57).contains(byte) else { return nil }
                let digit = Int(byte &- 48)
                if count < 4 {
                    fields.year = fields.year * 10 + digit
                } else if count < 7 {
                    fields.month = fields.month * 10 + digit
                } else {
                    fields.day = fields.day * 10 + digit
                }
            default: return nil
            }
            count += 1
        }
        guard count == 10 else { return nil }
        self.init(year: fields.year, month: fields.month, day: fields.day)
    }

    /// `YYYY-MM-DD` (years 0…9999; written into one buffer, since bulk imports format millions).
    public var description: String {
        guard (0...9999).contains(year) else { return "\(year)-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)" }
        return String(unsafeUninitializedCapacity: 10) { buffer in
            let zero = UInt8(ascii: "0"), dash = UInt8(ascii: "-")
            buffer[0] = zero + UInt8(year / 1000); buffer[1] = zero + UInt8(year / 100 % 10)
            buffer[2] = zero + UInt8(year / 10 % 10); buffer[3] = zero + UInt8(year % 10)
            buffer[4] = dash
            buffer[5] = zero + UInt8(month / 10); buffer[6] = zero + UInt8(month % 10)
            buffer[7] = dash
            buffer[8] = zero + UInt8(day / 10); buffer[9] = zero + UInt8(day % 10)
            return 10
        }
    }

    /// The day `n` calendar days later (earlier for negative `n`), ignoring zones.
    public func adding(days n: Int) -> LocalDay { LocalDay(dayNumber: dayNumber + n) }

    /// Whole calendar days from `self` to `other`.
    public func days(to other: LocalDay) -> Int { other.dayNumber - dayNumber }

    /// Day of the week, Sunday = 0 … Saturday = 6 (the seed's `weeklyDay` convention).
    public var weekday: Int {
        // 1970-01-01 was a Thursday (4).
        let w = (dayNumber + 4) % 7
        return w < 0 ? w + 7 : w
    }

    /// The first day of this day's month.
    public var firstOfMonth: LocalDay { LocalDay(validYear: year, month: month, day: 1) }

    /// The number of days in this day's month.
    public var daysInMonth: Int { LocalDay.daysIn(month: month, year: year) }

    /// The first day of the week containing this day, for a week starting on `firstWeekday`
    /// (Sunday = 0 … Saturday = 6).
    public func startOfWeek(firstWeekday: Int) -> LocalDay {
        let back = (weekday - firstWeekday + 7) % 7
        return adding(days: -back)
    }

    /// The same month shifted by `n` months, on day 1.
    public func addingMonths(_ n: Int) -> LocalDay {
        let total = year * 12 + (month - 1) + n
        let y = total >= 0 ? total / 12 : (total - 11) / 12
        return LocalDay(validYear: y, month: total - y * 12 + 1, day: 1)
    }

    public static func < (lhs: LocalDay, rhs: LocalDay) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        let string = try container.decode(String.self)
        guard let day = LocalDay(string) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "Expected a date as YYYY-MM-DD, got \(string.quotedForMessage)")
        }
        self = day
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
