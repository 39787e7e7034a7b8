import Foundation

/// Converts between instants and local days / wall-clock times in one IANA zone.
///
/// Everything here follows DESIGN.md's rules of time: days are 23, 24, 24.5 or 25 hours long, and some
/// never happen (Pacific/Apia skipped 2011-12-30). A wall-clock time that a transition skips resolves
/// to the first instant after the gap; one that a transition repeats resolves to its first occurrence.
public struct ZonedCalendar: Sendable, Hashable {
    public let timeZone: TimeZone
    /// First day of the week, Sunday = 0 … Saturday = 6.
    public let firstWeekday: Int

    public init(timeZone: TimeZone, firstWeekday: Int = 1) {
        self.timeZone = timeZone
        self.firstWeekday = ((firstWeekday % 7) + 7) % 7
    }

    /// Creates a calendar for an IANA identifier, or nil when the zone is unknown.
    public init?(identifier: String, firstWeekday: Int = 1) {
        guard let zone = Self.zone(identifier) else { return nil }
        self.init(timeZone: zone, firstWeekday: firstWeekday)
    }

    /// The zone an IANA identifier names (`Europe/Paris`, `UTC`, `Etc/GMT+5`), or nil.
    ///
    /// Foundation looks an identifier up as a file under the zoneinfo directory, so one from input is
    /// checked first: at most 64 characters of letters, digits, `_`, `+`, `-` and `/`, no empty or
    /// `..` component. `../../dev/zero` must never reach the file system.
    public static func zone(_ identifier: String) -> TimeZone? {
        guard (1...64).contains(identifier.utf8.count),
            identifier.unicodeScalars.allSatisfy({
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "_+-/".unicodeScalars.contains($0))
            }),
            !identifier.split(separator: "/", omittingEmptySubsequences: false).contains(where: { $0.isEmpty || $0 == ".." || $0 == "." })
        else { return nil }
        return TimeZone(identifier: identifier)
    }

    /// The local day on which `instant` falls in this zone.
    public func localDay(of instant: Date) -> LocalDay {
        let offset = timeZone.secondsFromGMT(for: instant)
        let local = Int((instant.timeIntervalSince1970).rounded(.down)) + offset
        return LocalDay(dayNumber: Self.floorDiv(local, 86_400))
    }

    /// Seconds since local midnight of `instant`'s local day (wall-clock reading).
    public func wallSeconds(of instant: Date) -> Int {
        let local = Int((instant.timeIntervalSince1970).rounded(.down)) + timeZone.secondsFromGMT(for: instant)
        return local - Self.floorDiv(local, 86_400) * 86_400
    }

    /// `HH:mm` of `instant` on this zone's wall clock, prefixed with its day unless that is `today`.
    public func wallText(_ instant: Date, today: LocalDay? = nil) -> String {
        let seconds = wallSeconds(of: instant)
        let time = TimeOfDay(hour: seconds / 3600, minute: seconds % 3600 / 60)?.description ?? "--:--"
        let day = localDay(of: instant)
        return day == today ? time : "\(day) \(time)"
    }

    /// Creates a calendar for an IANA identifier, or throws the validation error users see.
    public init(validating identifier: String, firstWeekday: Int = 1) throws(IntentionValidationError) {
        guard let zone = Self.zone(identifier) else { throw .unknownTimeZone(identifier) }
        self.init(timeZone: zone, firstWeekday: firstWeekday)
    }

    /// Whether `day` happened in this zone at all.
    public func exists(_ day: LocalDay) -> Bool {
        localDay(of: startOfDay(day)) == day
    }

    /// The first instant of `day` (midnight, or the first instant after a gap that swallowed midnight).
    /// For a day that never happened, the first instant of the next day that did.
    public func startOfDay(_ day: LocalDay) -> Date {
        instant(of: day, secondsIntoDay: 0)
    }

    /// The instant at which local wall-clock time `time` occurs on `day`.
    public func instant(of day: LocalDay, at time: TimeOfDay) -> Date {
        instant(of: day, secondsIntoDay: time.secondsIntoDay)
    }

    /// The instant of `secondsIntoDay` on `day`: first occurrence if repeated, first instant after the
    /// gap if skipped.
    public func instant(of day: LocalDay, secondsIntoDay: Int) -> Date {
        let naive = day.dayNumber * 86_400 + secondsIntoDay  // the wall time read as if it were UTC
        // The offsets that can apply near this wall time: those a day and a half either side.
        let before = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(naive - 129_600)))
        let after = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(naive + 129_600)))
        var candidates: [Int] = []
        for offset in Set([before, after]) {
            let t = naive - offset
            if timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(t))) == offset {
                candidates.append(t)
            }
        }
        if let first = candidates.min() { return Date(timeIntervalSince1970: TimeInterval(first)) }
        // A gap: the wall time never happened. Find the transition between the two readings.
        var lo = naive - max(before, after)  // offset here is still `before`
        var hi = naive - min(before, after)  // offset here is already `after`
        if lo > hi { swap(&lo, &hi) }
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2
            if timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(mid))) == before {
                lo = mid
            } else {
                hi = mid
            }
        }
        return Date(timeIntervalSince1970: TimeInterval(hi))
    }

    /// The next day after `day` that happened in this zone.
    public func nextDay(after day: LocalDay) -> LocalDay {
        var next = day.adding(days: 1)
        while !exists(next) { next = next.adding(days: 1) }
        return next
    }

    /// The last day before `day` that happened in this zone.
    public func previousDay(before day: LocalDay) -> LocalDay {
        var previous = day.adding(days: -1)
        while !exists(previous) { previous = previous.adding(days: -1) }
        return previous
    }

    /// Whether `later` follows `earlier` with no lived day between them (days that never happened in
    /// this zone do not break a run).
    public func areConsecutive(_ earlier: LocalDay, _ later: LocalDay) -> Bool {
        let gap = earlier.days(to: later)
        if gap == 1 { return true }
        if gap < 1 || gap > 3 { return false }  // no zone has skipped more than two days in a row
        return nextDay(after: earlier) == later
    }

    /// The first day of the calendar week that contains `day`.
    public func startOfWeek(containing day: LocalDay) -> LocalDay { day.startOfWeek(firstWeekday: firstWeekday) }

    static func floorDiv(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }
}
