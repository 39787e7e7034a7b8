import Foundation

extension ZonedCalendar {
    /// The days from `first` through `last` that never happened in this zone (it moved across the
    /// date line, as Samoa did on 2011-12-30). Found from the zone's offset changes, so the cost
    /// follows its changes (a few a year, none for UTC), never the number of days.
    public func skippedDays(from first: LocalDay, through last: LocalDay) -> [LocalDay] {
        guard first <= last else { return [] }
        var skipped: [LocalDay] = []
        var cursor = startOfDay(first).addingTimeInterval(-86_400)
        let end = startOfDay(last).addingTimeInterval(2 * 86_400)
        while let change = timeZone.nextDaylightSavingTimeTransition(after: cursor), change < end, change > cursor {
            let jump = timeZone.secondsFromGMT(for: change) - timeZone.secondsFromGMT(for: change.addingTimeInterval(-1))
            // Only a jump forward of many hours can swallow a whole day.
            if jump >= 12 * 3600 {
                var day = localDay(of: change.addingTimeInterval(-1)).adding(days: 1)
                while day <= last.adding(days: 1), !exists(day) {
                    if day >= first && day <= last { skipped.append(day) }
                    day = day.adding(days: 1)
                }
            }
            cursor = change
        }
        return skipped
    }
}
