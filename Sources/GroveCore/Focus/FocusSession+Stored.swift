import Foundation

/// The rules every stored session satisfies, whatever wrote it (the live state machine, a logged
/// session, an import): the table's CHECKs said with clear messages, plus the rules SQL cannot
/// check (the day a session is filed under).
extension FocusSession {
    /// The longest pause a stored session may carry: a year (anything longer is a corrupt number).
    public static let maxPausedDuration: TimeInterval = 366 * 86_400
    /// The instants a session may have: from 1970 to the end of year 9999 (UTC). Anything outside is
    /// a typo or a broken export, never a session someone lived (and 9999 keeps four-digit years).
    public static let instantRange = Date(timeIntervalSince1970: 0)...Date(timeIntervalSince1970: 253_402_300_799)

    /// Throws the first rule this session breaks. `calendar` is the session's own zone, looked up
    /// from `timeZoneIdentifier` when not given.
    public func validateAsStored(calendar: ZonedCalendar? = nil) throws {
        let s = self
        for (field, value) in [("duration", s.duration), ("pausedDuration", s.pausedDuration), ("plannedDuration", s.plannedDuration)]
        where !value.isFinite {
            throw InvalidField(field, "\(field) must be a finite number of seconds")
        }
        // History's range, wider than a new session's (`lengthRange`): older versions kept second-long ones.
        guard FocusSession.plannedDurationRange.contains(s.plannedDuration) else {
            throw InvalidField("plannedDuration", "Session length must be between 1 second and 4 hours")
        }
        guard s.duration >= 0, s.duration <= s.plannedDuration + 0.0005 else {
            throw InvalidField("duration", "Focus time must be between 0 and the session length")
        }
        guard Self.instantRange.contains(s.startTime) else {
            throw InvalidField("startTime", "A session starts between 1970-01-01 and 9999-12-31 (UTC)")
        }
        if let end = s.endTime, !Self.instantRange.contains(end) {
            throw InvalidField("endTime", "A session ends between 1970-01-01 and 9999-12-31 (UTC)")
        }
        guard s.pausedDuration >= 0 else { throw InvalidField("pausedDuration", "Paused time cannot be negative") }
        guard s.pausedDuration <= Self.maxPausedDuration else { throw InvalidField("pausedDuration", "Paused time cannot exceed a year") }
        guard let calendar = calendar ?? ZonedCalendar(identifier: s.timeZoneIdentifier) else {
            throw InvalidField("timeZoneIdentifier", "Unknown time zone \"\(s.timeZoneIdentifier)\"")
        }
        if s.state.isTerminal {
            guard let end = s.endTime, let endDay = s.endDay else {
                throw InvalidField("endTime", "A \(s.state.rawValue) session needs endTime and endDay")
            }
            guard end >= s.startTime else { throw FocusError.invalidInterval("A session must end after it starts") }
            // The day a session is filed under is the day it ended where it was lived: a contradicting
            // endDay would count it on the wrong day (and in the wrong streak) forever.
            let day = calendar.localDay(of: end)
            guard day == endDay else {
                throw InvalidField("endDay", "endDay \(endDay) is not the day the session ended in \(s.timeZoneIdentifier) (\(day))")
            }
        } else if s.endTime != nil || s.endDay != nil {
            throw InvalidField("endTime", "An open session cannot have endTime")
        }
        guard (s.state == .paused) == (s.pausedAt != nil) else {
            throw InvalidField("pausedAt", "pausedAt is set exactly when a session is paused")
        }
        if !s.tags.isEmpty { try FocusTags.validateStored(s.tags) }
    }
}

extension Sequence<FocusSession> {
    /// Validates many sessions; each distinct zone is looked up once (a zone lookup costs more than
    /// every other check together).
    public func validateAsStored() throws {
        var calendars: [String: ZonedCalendar] = [:]
        for session in self {
            let zone = session.timeZoneIdentifier
            if calendars[zone] == nil {
                guard let calendar = ZonedCalendar(identifier: zone) else {
                    throw InvalidField("timeZoneIdentifier", "Unknown time zone \"\(zone)\"")
                }
                calendars[zone] = calendar
            }
            try session.validateAsStored(calendar: calendars[zone])
        }
    }
}
