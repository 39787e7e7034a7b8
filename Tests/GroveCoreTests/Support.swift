import Foundation

@testable import GroveCore

/// Parses an ISO 8601 instant (with Z or an offset).
func instant(_ string: String) -> Date {
    let f = ISO8601DateFormatter()
    f.formatOptions = [.withInternetDateTime]
    guard let date = f.date(from: string) else { fatalError("bad instant \(string)") }
    return date
}

func day(_ string: String) -> LocalDay { LocalDay(string)! }

func zone(_ id: String) -> ZonedCalendar { ZonedCalendar(identifier: id)! }

let utc = zone("UTC")
let newYork = zone("America/New_York")
let lordHowe = zone("Australia/Lord_Howe")
let apia = zone("Pacific/Apia")

func uuid(_ n: Int) -> UUID { UUID(uuidString: String(format: "00000000-0000-4000-8000-%012X", n))! }

/// A completed session that ended at `end` after `minutes` of focus, lived in `calendar`'s zone.
func completed(_ n: Int, endingAt end: Date, minutes: Double = 25, in calendar: ZonedCalendar) -> FocusSession {
    FocusSession(
        id: uuid(n), startTime: end.addingTimeInterval(-minutes * 60), endTime: end, state: .completed,
        duration: minutes * 60, plannedDuration: minutes * 60, timeZoneIdentifier: calendar.timeZone.identifier,
        endDay: calendar.localDay(of: end))
}

func abandoned(_ n: Int, endingAt end: Date, in calendar: ZonedCalendar) -> FocusSession {
    FocusSession(
        id: uuid(n), startTime: end.addingTimeInterval(-600), endTime: end, state: .abandoned, duration: 600,
        timeZoneIdentifier: calendar.timeZone.identifier, endDay: calendar.localDay(of: end))
}
