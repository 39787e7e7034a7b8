import Foundation

/// A deterministic focus history for benchmarks, load tests and demos: `count` sessions spread over
/// `days` local days ending on `lastDay`, about one in eight abandoned, a few days with none.
public enum SyntheticHistory {
    public static func sessions(count: Int, days: Int, lastDay: LocalDay, calendar: ZonedCalendar) -> [FocusSession] {
        precondition(days > 0)
        var result: [FocusSession] = []
        result.reserveCapacity(count)
        let perDay = max(1, (count + days - 1) / days)
        let firstDay = lastDay.adding(days: -(days - 1))
        var n = 0
        var dayIndex = 0
        while n < count {
            let day = firstDay.adding(days: dayIndex % days)
            dayIndex += 1
            // Every 29th day is a rest day: streaks have gaps, like a real person's.
            if dayIndex % 29 == 0 && dayIndex <= days { continue }
            let dayStart = calendar.instant(of: day, secondsIntoDay: 7 * 3600)
            for slot in 0..<perDay where n < count {
                let start = dayStart.addingTimeInterval(TimeInterval(slot % 40) * 1800 + TimeInterval(slot / 40))
                let abandoned = n % 8 == 5
                let focus: TimeInterval = abandoned ? TimeInterval(300 + n % 600) : 1500
                let end = start.addingTimeInterval(focus)
                result.append(
                    FocusSession(
                        id: UUID(uuidString: String(format: "5E55%04X-0000-4000-8000-%012X", (n >> 48) & 0xFFFF, n & 0xFFFF_FFFF_FFFF))!,
                        startTime: start, endTime: end, state: abandoned ? .abandoned : .completed, duration: focus,
                        plannedDuration: 1500, timeZoneIdentifier: calendar.timeZone.identifier, endDay: calendar.localDay(of: end)))
                n += 1
            }
        }
        return result
    }
}
