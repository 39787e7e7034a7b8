import Foundation
import GroveCore

/// The checks of an export's sessions that need no store: the stored-session rules in each one's
/// own zone, and at most one still running.
struct SessionChecks {
    private var open = 0
    private var calendars: [String: ZonedCalendar] = [:]

    mutating func check(_ session: FocusSession, index: Int) throws {
        if session.state.isOpen {
            open += 1
            guard open <= 1 else { throw InvalidField("focusSessions", "An export can hold at most one active or paused session") }
        }
        let zone = session.timeZoneIdentifier
        if calendars[zone] == nil {
            guard calendars.count < 10_000, let calendar = ZonedCalendar(identifier: zone) else {
                throw InvalidField("timeZoneIdentifier", "Unknown time zone \"\(zone)\" (focusSessions[\(index)])")
            }
            calendars[zone] = calendar
        }
        try session.validateAsStored(calendar: calendars[zone])
    }
}
