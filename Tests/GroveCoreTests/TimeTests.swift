import Foundation
import Testing

@testable import GroveCore

@Suite("Local days and zoned calendars")
struct TimeTests {
    @Test func localDayRoundTripsThroughDayNumbers() {
        for n in stride(from: -800_000, through: 800_000, by: 997) {
            #expect(LocalDay(dayNumber: n).dayNumber == n)
        }
        #expect(day("1970-01-01").dayNumber == 0)
        #expect(day("2024-02-29").adding(days: 1) == day("2024-03-01"))
        #expect(day("2025-12-31").adding(days: 1) == day("2026-01-01"))
    }

    @Test func localDayRejectsImpossibleDates() {
        #expect(LocalDay("2025-02-29") == nil)
        #expect(LocalDay("2025-13-01") == nil)
        #expect(LocalDay("2025-1-01") == nil)
        #expect(LocalDay("yesterday") == nil)
        #expect(LocalDay("2024-02-29") != nil)
    }

    @Test func weekdaysUseSundayZero() {
        #expect(day("2025-03-09").weekday == 0)  // a Sunday
        #expect(day("2025-03-10").weekday == 1)
        #expect(day("1970-01-01").weekday == 4)
        #expect(day("2025-03-12").startOfWeek(firstWeekday: 1) == day("2025-03-10"))
        #expect(day("2025-03-12").startOfWeek(firstWeekday: 0) == day("2025-03-09"))
        #expect(day("2025-03-09").startOfWeek(firstWeekday: 1) == day("2025-03-03"))
    }

    @Test func monthArithmetic() {
        #expect(day("2025-01-31").addingMonths(1) == day("2025-02-01"))
        #expect(day("2025-12-15").addingMonths(1) == day("2026-01-01"))
        #expect(day("2025-01-15").addingMonths(-1) == day("2024-12-01"))
        #expect(day("2024-02-10").daysInMonth == 29)
    }

    @Test func timeOfDayParsing() {
        #expect(TimeOfDay("08:30") == TimeOfDay(hour: 8, minute: 30))
        #expect(TimeOfDay("24:00") == nil)
        #expect(TimeOfDay("7:5") == nil)
        #expect(TimeOfDay(hour: 7, minute: 5)!.description == "07:05")
    }

    @Test func dayLengthsFollowTheZoneNotEightySixThousandSeconds() {
        func length(_ d: String, _ c: ZonedCalendar) -> TimeInterval {
            c.startOfDay(day(d).adding(days: 1)).timeIntervalSince(c.startOfDay(day(d)))
        }
        #expect(length("2025-03-09", newYork) == 23 * 3600)
        #expect(length("2025-11-02", newYork) == 25 * 3600)
        #expect(length("2025-06-01", newYork) == 24 * 3600)
        #expect(length("2025-04-06", lordHowe) == 24.5 * 3600)
        #expect(length("2025-10-05", lordHowe) == 23.5 * 3600)
    }

    @Test func apiaSkippedTheThirtiethOfDecember2011() {
        #expect(!apia.exists(day("2011-12-30")))
        #expect(apia.exists(day("2011-12-29")))
        #expect(apia.exists(day("2011-12-31")))
        #expect(apia.nextDay(after: day("2011-12-29")) == day("2011-12-31"))
        #expect(apia.previousDay(before: day("2011-12-31")) == day("2011-12-29"))
        #expect(apia.areConsecutive(day("2011-12-29"), day("2011-12-31")))
        #expect(!utc.areConsecutive(day("2011-12-29"), day("2011-12-31")))
    }

    @Test func localDayOfAnInstantUsesTheOffsetInForceThen() {
        // 04:30Z on 2025-03-09 is 23:30 EST on the 8th; 04:30Z on the 10th is 00:30 EDT on the 10th.
        #expect(newYork.localDay(of: instant("2025-03-09T04:30:00Z")) == day("2025-03-08"))
        #expect(newYork.localDay(of: instant("2025-03-10T04:30:00Z")) == day("2025-03-10"))
        #expect(zone("Etc/GMT-14").localDay(of: instant("2025-06-01T11:00:00Z")) == day("2025-06-02"))
        #expect(zone("Etc/GMT+12").localDay(of: instant("2025-06-01T11:00:00Z")) == day("2025-05-31"))
    }

    @Test func skippedWallTimesResolveToTheFirstInstantAfterTheGap() {
        #expect(newYork.instant(of: day("2025-03-09"), at: TimeOfDay(hour: 2, minute: 30)!) == instant("2025-03-09T07:00:00Z"))
        #expect(lordHowe.instant(of: day("2025-10-05"), at: TimeOfDay(hour: 2, minute: 15)!) == instant("2025-10-04T15:30:00Z"))
    }

    @Test func repeatedWallTimesResolveToTheirFirstOccurrence() {
        #expect(newYork.instant(of: day("2025-11-02"), at: TimeOfDay(hour: 1, minute: 30)!) == instant("2025-11-02T05:30:00Z"))
        #expect(lordHowe.instant(of: day("2025-04-06"), at: TimeOfDay(hour: 1, minute: 45)!) == instant("2025-04-05T14:45:00Z"))
    }

    @Test func clockReadingsPreferTheMonotonicClockOnTheSameBoot() {
        let anchor = ClockReading(wall: instant("2025-01-01T10:00:00Z"), bootID: "a", sinceBoot: 100)
        // Wall clock jumped back an hour, but 60 s passed on the boot clock.
        let later = ClockReading(wall: instant("2025-01-01T09:01:00Z"), bootID: "a", sinceBoot: 160)
        #expect(later.resolved(since: anchor).now == instant("2025-01-01T10:01:00Z"))
        #expect(later.resolved(since: anchor).uncertain == false)
        // After a reboot the wall clock is all there is: clamped, and flagged.
        let rebooted = ClockReading(wall: instant("2025-01-01T09:00:00Z"), bootID: "b", sinceBoot: 5)
        #expect(rebooted.resolved(since: anchor).now == anchor.wall)
        #expect(rebooted.resolved(since: anchor).uncertain)
        #expect(ClockReading(wall: anchor.wall).resolved(since: nil).now == anchor.wall)
    }
}
