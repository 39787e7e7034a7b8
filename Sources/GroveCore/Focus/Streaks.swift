/// Streaks over local days (DESIGN.md, rules of time).
///
/// A streak is a run of consecutive local days with at least one completed session. Days that never
/// happened in the configured zone (Pacific/Apia's 2011-12-30) do not break a run.
public enum Streaks {
    /// The current streak: the run ending today, or ending yesterday while today has none yet.
    /// - Parameter days: the days with at least one completed session, in any order, duplicates allowed.
    public static func current(days: some Sequence<LocalDay>, today: LocalDay, calendar: ZonedCalendar) -> Int {
        let sorted = Set(days).sorted(by: >)
        guard let latest = sorted.first(where: { $0 <= today }) else { return 0 }
        // Alive if the latest day is today, or the day before today.
        guard latest == today || calendar.areConsecutive(latest, today) else { return 0 }
        var count = 1
        var previous = latest
        for day in sorted.drop(while: { $0 >= latest }) {
            guard calendar.areConsecutive(day, previous) else { break }
            count += 1
            previous = day
        }
        return count
    }

    /// The longest run ever.
    public static func longest(days: some Sequence<LocalDay>, calendar: ZonedCalendar) -> Int {
        longest(sortedDistinct: Set(days).sorted(), calendar: calendar)
    }

    /// The longest run in days already sorted ascending and distinct (the store's fast path).
    public static func longest(sortedDistinct days: [LocalDay], calendar: ZonedCalendar) -> Int {
        var best = 0, run = 0
        var previous: LocalDay?
        for day in days {
            run = previous.map { calendar.areConsecutive($0, day) } == true ? run + 1 : 1
            best = max(best, run)
            previous = day
        }
        return best
    }

    /// The current streak for days already sorted ascending and distinct.
    public static func current(sortedDistinct days: [LocalDay], today: LocalDay, calendar: ZonedCalendar) -> Int {
        guard var index = days.lastIndex(where: { $0 <= today }) else { return 0 }
        let latest = days[index]
        guard latest == today || calendar.areConsecutive(latest, today) else { return 0 }
        var count = 1
        while index > 0, calendar.areConsecutive(days[index - 1], days[index]) {
            count += 1
            index -= 1
        }
        return count
    }
}
