import Foundation
import Testing

@testable import GroveCore

/// Scheduled blocks: the text people type, read and written back, and the instants a block holds,
/// on the local clock of the configured zone, across DST changes and midnight.
@Suite("Block schedules")
struct BlockScheduleTests {
    static let newYork = ZonedCalendar(identifier: "America/New_York", firstWeekday: 1)!

    static func at(_ text: String, _ calendar: ZonedCalendar = newYork) throws -> Date {
        let parts = text.split(separator: " ")
        let day = try #require(LocalDay(String(parts[0])))
        let time = try #require(TimeOfDay(String(parts[1])))
        return calendar.instant(of: day, at: time)
    }

    @Test(
        "a schedule is read as typed and written back the same way",
        arguments: [
            ("mon-fri 09:00-12:00", "mon-fri 09:00-12:00"), ("weekdays 9:00-12:00", "mon-fri 09:00-12:00"),
            ("Weekends 10:00-11:30; MON,wed 22:00-07:00", "sat-sun 10:00-11:30; mon,wed 22:00-07:00"),
            ("daily 00:00-24:00", "daily 00:00-24:00"), ("fri-mon 18:00-20:00", "mon,fri-sun 18:00-20:00"),
            ("monday-friday 08:00-09:00", "mon-fri 08:00-09:00"),
        ])
    func roundTrip(typed: String, written: String) throws {
        let schedule = try BlockSchedule(parsing: typed)
        #expect(schedule.description == written)
        #expect(try BlockSchedule(parsing: written) == schedule)
    }

    @Test(
        "what is not a schedule is refused, naming the field and the rule",
        arguments: [
            "", "   ", "mon-fri", "mo-fri 09:00-12:00", "mon-fri 9-12", "mon-fri 09:00-09:00", "mon-fri 24:00-02:00",
            "mon-fri 09:60-10:00", "mon-fri 25:00-12:00", "funday 09:00-10:00", "mon-fri 09:00-12:00 extra", "mon +9:00-10:00",
            "mon ٠٩:00-10:00",
            String(repeating: "mon 09:00-10:00;", count: 15), String(repeating: "x", count: 501), "mon 09:00-10:00\u{0}",
        ])
    func refused(text: String) {
        #expect {
            _ = try BlockSchedule(parsing: text)
        } throws: { error in
            (error as? PauseValidationError)?.field == "block" && !((error as? PauseValidationError)?.message.isEmpty ?? true)
        }
    }

    @Test("weekdays 09:00-12:00 in New York holds at the local times the week DST begins and the week it ends")
    func dstInNewYork() throws {
        let schedule = try BlockSchedule(parsing: "weekdays 09:00-12:00")
        // 2026-03-08 (Sunday): clocks spring forward at 02:00. Monday's block is 09:00-12:00 EDT (UTC-4).
        let monday = try #require(schedule.activeBlock(at: try Self.at("2026-03-09 10:30"), calendar: Self.newYork))
        #expect(monday.start == Date(timeIntervalSince1970: 1_773_061_200))  // 2026-03-09 13:00 UTC
        #expect(monday.end == Date(timeIntervalSince1970: 1_773_072_000))  // 16:00 UTC
        // The Friday before, still EST (UTC-5): 14:00-17:00 UTC.
        let friday = try #require(schedule.activeBlock(at: try Self.at("2026-03-06 09:00"), calendar: Self.newYork))
        #expect(friday.start == Date(timeIntervalSince1970: 1_772_805_600) && friday.duration == 3 * 3600)
        #expect(schedule.activeBlock(at: try Self.at("2026-03-06 08:59"), calendar: Self.newYork) == nil)
        #expect(schedule.activeBlock(at: try Self.at("2026-03-06 12:00"), calendar: Self.newYork) == nil)
        #expect(schedule.activeBlock(at: try Self.at("2026-03-08 10:00"), calendar: Self.newYork) == nil, "not on Sunday")
        // 2026-11-01 (Sunday): clocks fall back. Monday the 2nd is EST again: 14:00-17:00 UTC.
        let november = try #require(schedule.activeBlock(at: try Self.at("2026-11-02 11:59"), calendar: Self.newYork))
        #expect(november.start == Date(timeIntervalSince1970: 1_793_628_000) && november.duration == 3 * 3600)
    }

    @Test("a block over the DST change itself lasts the hours the clock shows, not the hours it says")
    func acrossTheChange() throws {
        let night = try BlockSchedule(parsing: "sat 23:00-04:00; sun 01:30-02:30")
        // Spring forward: Saturday 23:00 EST to Sunday 04:00 EDT is four hours, not five.
        let spring = try #require(night.activeBlock(at: try Self.at("2026-03-08 03:30"), calendar: Self.newYork))
        #expect(spring.duration == 4 * 3600)
        // Sunday 01:30-02:30 the day 02:xx does not exist: 01:30 EST to 03:00 EDT (the first instant after the gap).
        let sunday = try #require(LocalDay("2026-03-08"))
        let gap = try #require(night.blocks(startingOn: sunday, calendar: Self.newYork).last)
        #expect(gap.duration == 30 * 60)
        // Fall back: Saturday 23:00 EDT to Sunday 04:00 EST is six hours.
        let fall = try #require(night.activeBlock(at: try Self.at("2026-11-01 00:30"), calendar: Self.newYork))
        #expect(fall.duration == 6 * 3600)
    }

    @Test("a window past midnight holds from the evening into the next morning, and nextBlock finds the next one")
    func pastMidnight() throws {
        let utc = ZonedCalendar(timeZone: TimeZone(secondsFromGMT: 0)!)
        let late = try BlockSchedule(parsing: "fri 22:00-07:00")
        #expect(late.activeBlock(at: try Self.at("2026-11-28 06:59", utc), calendar: utc) != nil, "Saturday morning, from Friday")
        #expect(late.activeBlock(at: try Self.at("2026-11-28 07:00", utc), calendar: utc) == nil)
        #expect(late.activeBlock(at: try Self.at("2026-11-27 21:59", utc), calendar: utc) == nil)
        let next = try #require(late.nextBlock(after: try Self.at("2026-11-28 08:00", utc), calendar: utc))
        #expect(next.start == (try Self.at("2026-12-04 22:00", utc)))
    }
}
