import Foundation

extension BlockSchedule {
    /// The block in force at `instant` (its start and end as instants), or nil. Overlapping windows
    /// join: the answer ends when the last of them that holds `instant` ends.
    public func activeBlock(at instant: Date, calendar: ZonedCalendar) -> DateInterval? {
        let today = calendar.localDay(of: instant)
        var found: DateInterval?
        // A window that started yesterday may run past midnight into today.
        for day in [today.adding(days: -1), today] {
            for block in blocks(startingOn: day, calendar: calendar) where block.start <= instant && instant < block.end {
                if found.map({ block.end > $0.end }) ?? true { found = block }
            }
        }
        return found
    }

    /// The next block to start after `instant` (within a week), for "next block: Mon 09:00".
    public func nextBlock(after instant: Date, calendar: ZonedCalendar) -> DateInterval? {
        let today = calendar.localDay(of: instant)
        return (0...7).flatMap { blocks(startingOn: today.adding(days: $0), calendar: calendar) }
            .filter { $0.start > instant }
            .min { $0.start < $1.start }
    }

    /// The windows that start on local `day`, as instants. A local time that does not exist that
    /// day (clocks spring forward) is the first one that does; one that happens twice (clocks fall
    /// back) is the first of the two.
    func blocks(startingOn day: LocalDay, calendar: ZonedCalendar) -> [DateInterval] {
        windows.filter { $0.weekdays.contains(day.weekday) }.compactMap { window in
            let start = calendar.instant(of: day, secondsIntoDay: window.start * 60)
            let end =
                window.end > window.start
                ? calendar.instant(of: day, secondsIntoDay: window.end * 60)
                : calendar.instant(of: day.adding(days: 1), secondsIntoDay: window.end * 60)
            return end > start ? DateInterval(start: start, end: end) : nil
        }
    }
}
