import Foundation

/// When a gated app is blocked outright (issue 40: "weekdays 09:00–12:00"): windows of local time
/// on some days of the week, in the configured zone. During a window the app cannot be proceeded
/// to at all; only the week's emergency pass lets one visit through.
///
/// Written as text, one window after another: `mon-fri 09:00-12:00; sat 10:00-11:30`. Days are
/// `mon`…`sun`, ranges (`fri-mon` wraps), lists (`mon,wed`), `weekdays`, `weekends` or `daily`; a
/// window that ends before it starts runs past midnight (`22:00-07:00`). Times are the local clock's:
/// a window starting at 02:30 on the day clocks spring forward starts at 03:00 (the first instant
/// that exists), and one ending at 01:30 on the day they fall back ends at the first 01:30.
public struct BlockSchedule: Hashable, Sendable, Codable, CustomStringConvertible {
    /// One window: the days it starts on (Sunday = 0 … Saturday = 6, as `LocalDay.weekday`) and its
    /// local start and end, in minutes after midnight.
    public struct Window: Hashable, Sendable {
        public var weekdays: Set<Int>
        public var start: Int
        public var end: Int
    }

    public var windows: [Window]

    /// The most windows one app's schedule may have.
    public static let maxWindows = 14
    /// The longest schedule text accepted.
    public static let maxLength = 500

    static let dayNames = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]

    /// Reads a schedule as typed; the error names the field (`block`) and the rule broken.
    public init(parsing text: String) throws(PauseValidationError) {
        guard text.storedLength <= Self.maxLength, !text.containsNUL else {
            throw .invalidBlockSchedule(text, rule: "a schedule is at most \(Self.maxLength) characters")
        }
        let parts = text.lowercased().split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !parts.isEmpty else {
            throw .invalidBlockSchedule(text, rule: "a schedule has at least one window, such as mon-fri 09:00-12:00")
        }
        guard parts.count <= Self.maxWindows else { throw .invalidBlockSchedule(text, rule: "at most \(Self.maxWindows) windows") }
        windows = try parts.map { part throws(PauseValidationError) in try Self.window(part, in: text) }
    }

    private static func window(_ part: String, in text: String) throws(PauseValidationError) -> Window {
        let words = part.split(separator: " ", omittingEmptySubsequences: true)
        guard words.count == 2, let dash = words[1].firstIndex(of: "-") else {
            throw .invalidBlockSchedule(text, rule: "each window is days and a time range, such as mon-fri 09:00-12:00")
        }
        let weekdays = try days(String(words[0]), in: text)
        guard let start = minutes(words[1][..<dash]), let end = minutes(words[1][words[1].index(after: dash)...]) else {
            throw .invalidBlockSchedule(text, rule: "times are HH:MM, 00:00 to 24:00")
        }
        guard start != end, start < 24 * 60 else {
            throw .invalidBlockSchedule(text, rule: "a window ends at another time than it starts")
        }
        return Window(weekdays: weekdays, start: start, end: end)
    }

    private static func days(_ text: String, in whole: String) throws(PauseValidationError) -> Set<Int> {
        switch text {
        case "daily": return Set(0...6)
        case "weekdays": return Set(1...5)
        case "weekends": return [0, 6]
        default: break
        }
        var result = Set<Int>()
        for item in text.split(separator: ",") {
            let ends = item.split(separator: "-", omittingEmptySubsequences: false).map { dayNames.firstIndex(of: String($0.prefix(3))) }
            guard (1...2).contains(ends.count), let first = ends[0], let last = ends[ends.count - 1],
                item.split(separator: "-").allSatisfy({ piece in piece.count >= 3 && Self.fullNames.contains { $0.hasPrefix(piece) } })
            else { throw .invalidBlockSchedule(whole, rule: "days are mon…sun, a range such as mon-fri, weekdays, weekends or daily") }
            var day = first
            while true {
                result.insert(day)
                if day == last { break }
                day = (day + 1) % 7
            }
        }
        return result
    }

    static let fullNames = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]

    private static func minutes(_ text: Substring) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
            parts.allSatisfy({ $0.unicodeScalars.allSatisfy { ("0"..."9").contains($0) } }),
            let hour = Int(parts[0]), let minute = Int(parts[1]), (0...24).contains(hour), (0...59).contains(minute),
            hour * 60 + minute <= 24 * 60
        else { return nil }
        return hour * 60 + minute
    }

    /// The schedule as Grove writes it back: days as ranges, times as HH:MM.
    public var description: String {
        windows.map { "\(Self.describe($0.weekdays)) \(Self.clock($0.start))-\(Self.clock($0.end))" }.joined(separator: "; ")
    }

    static func clock(_ minutes: Int) -> String {
        String(format: "%02d:%02d", minutes / 60, minutes % 60)
    }

    static func describe(_ weekdays: Set<Int>) -> String {
        if weekdays.count == 7 { return "daily" }
        // Runs of consecutive days, Monday first (mon-fri, sat-sun), as a list.
        let order = [1, 2, 3, 4, 5, 6, 0]
        var runs: [[Int]] = []
        for day in order where weekdays.contains(day) {
            if let last = runs.last?.last, order.firstIndex(of: last).map({ order[$0 + 1 < 7 ? $0 + 1 : 0] }) == day {
                runs[runs.count - 1].append(day)
            } else {
                runs.append([day])
            }
        }
        return runs.map { run in
            run.count == 1 ? dayNames[run[0]] : "\(dayNames[run[0]])-\(dayNames[run[run.count - 1]])"
        }.joined(separator: ",")
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do { self = try BlockSchedule(parsing: text) } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.message))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
