import Foundation

/// SYNC.md's rule for two focus sessions started offline on two devices: the later start stays open;
/// the other closes at that instant — completed if it had reached its length by then, else abandoned.
///
/// A pure function of the two sessions, so the server and every device close the same session to the
/// same values, whichever sees the pair first.
public enum FocusSupersession {
    public typealias Session = (id: String, fields: SyncFields)

    /// The session that stays open and the other one closed, or nil unless both are open.
    ///
    /// `notAfter` is the server's time (nil on a device): a start stamped ahead of it by a fast clock
    /// closes the other session no later than now, so it cannot be credited with time that has not
    /// passed (a tree it never grew). A device that closed it later agrees after its next pull: between
    /// two ends, the earlier wins.
    public static func resolve(_ a: Session, _ b: Session, notAfter: Date? = nil) -> (keep: Session, close: Session)? {
        guard let first = session(a.fields), let second = session(b.fields), first.isOpen, second.isOpen else { return nil }
        let aKeeps = (first.startTime, a.id) > (second.startTime, b.id)
        let (keep, close, closing) = aKeeps ? (a, b, second) : (b, a, first)
        let laterStart = aKeeps ? first.startTime : second.startTime
        let at = notAfter.map { max(closing.startTime, min(laterStart, $0)) } ?? laterStart
        let calendar =
            ZonedCalendar(identifier: closing.timeZoneIdentifier) ?? ZonedCalendar(timeZone: TimeZone(secondsFromGMT: 0) ?? .current)
        var closed = closing.settled(at: at, fallback: calendar)
        if closed.isOpen { try? closed.abandon(at: at, in: calendar) }
        return (keep, (close.id, fields(closed, base: close.fields)))
    }

    /// The session the fields describe (nil when they do not describe one).
    static func session(_ fields: SyncFields) -> FocusSession? {
        func instant(_ name: String) -> Date? { fields[name]?.int.map { Date(timeIntervalSince1970: Double($0) / 1000) } }
        func seconds(_ name: String) -> TimeInterval? { fields[name]?.int.map { Double($0) / 1000 } }
        guard let start = instant("startTime"), let state = fields["state"]?.text.flatMap(SessionState.init(rawValue:)),
            let duration = seconds("durationMs"), let paused = seconds("pausedMs"), let planned = seconds("plannedMs"),
            let created = instant("createdAt"), let zone = fields["timeZone"]?.text
        else { return nil }
        return FocusSession(
            id: UUID(), startTime: start, endTime: instant("endTime"), state: state, duration: duration, pausedDuration: paused,
            createdAt: created, plannedDuration: planned, pausedAt: instant("pausedAt"), timeZoneIdentifier: zone,
            endDay: fields["endDay"]?.text.flatMap { LocalDay($0) },
            clockUncertain: fields["clockUncertain"].map { $0 == .bool(true) || $0 == .int(1) } ?? false,
            openEnded: fields["openEnded"].map { $0 == .bool(true) || $0 == .int(1) } ?? false)
    }

    static func fields(_ session: FocusSession, base: SyncFields) -> SyncFields {
        func millis(_ date: Date?) -> SyncValue { date.map { .int($0.groveMillis) } ?? .null }
        func millis(_ interval: TimeInterval) -> SyncValue { .int(Date(timeIntervalSince1970: interval).groveMillis) }
        var fields = base
        fields["endTime"] = millis(session.endTime)
        fields["state"] = .text(session.state.rawValue)
        fields["durationMs"] = millis(session.duration)
        fields["pausedMs"] = millis(session.pausedDuration)
        fields["pausedAt"] = millis(session.pausedAt)
        fields["timeZone"] = .text(session.timeZoneIdentifier)
        fields["endDay"] = session.endDay.map { .text($0.description) } ?? .null
        return fields
    }
}

extension FocusSession {
    var isOpen: Bool { state == .active || state == .paused }
}
