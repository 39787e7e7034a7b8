import Foundation

extension FocusSession {
    /// A pause inside a session recorded after the fact.
    public struct LoggedPause: Sendable, Hashable {
        public var start: Date
        public var end: Date
        public init(start: Date, end: Date) {
            self.start = start
            self.end = end
        }
    }

    /// A session that happened elsewhere (a pen-and-paper Pomodoro, another device), checked by the
    /// rules every face shares: it ends after it starts and not in the future; pauses lie inside it and
    /// do not overlap; a completed session's focus time is its length (the planned length defaults to
    /// the focus time); an abandoned one keeps the focus time it had, never more than its length.
    /// It is filed under the day it ended in `calendar`'s zone. A completed one costs `shortest`
    /// (a tree's minute when a person logs it; an import of another tool's history keeps its intervals
    /// from one second, as `plannedDurationRange` stores them).
    public static func logged(
        id: UUID, start: Date, end: Date, pauses: [LoggedPause] = [], abandoned: Bool = false, plannedDuration: TimeInterval? = nil,
        now: Date, calendar: ZonedCalendar, shortest: TimeInterval = shortestTree
    ) throws(FocusError) -> FocusSession {
        guard end > start else { throw .invalidInterval("A session must end after it starts") }
        guard instantRange.contains(start), instantRange.contains(end) else {
            throw .invalidInterval("A session lies between 1970-01-01 and 9999-12-31 (UTC)")
        }
        guard end <= now.addingTimeInterval(1) else { throw .invalidInterval("A logged session cannot end in the future") }
        var paused: TimeInterval = 0
        var previousEnd = start
        for pause in pauses.sorted(by: { $0.start < $1.start }) {
            guard pause.end > pause.start else { throw .invalidInterval("A pause must end after it starts") }
            guard pause.start >= previousEnd, pause.end <= end else {
                throw .invalidInterval("Pauses must lie inside the session and not overlap")
            }
            paused += pause.end.timeIntervalSince(pause.start)
            previousEnd = pause.end
        }
        let focus = end.timeIntervalSince(start) - paused
        let planned = plannedDuration ?? focus
        // A tree costs a minute however it is recorded; an abandoned session is history of any length.
        let least = abandoned ? plannedDurationRange.lowerBound : max(plannedDurationRange.lowerBound, shortest)
        guard planned.isFinite, (least...plannedDurationRange.upperBound).contains(planned) else {
            throw .invalidPlannedDuration(planned)
        }
        if !abandoned && abs(focus - planned) > 0.001 {
            throw .invalidInterval(
                "A completed session's focus time must equal its length (focus \(Int(focus)) s, length \(Int(planned)) s)")
        }
        guard focus <= planned + 0.001 else { throw .invalidInterval("Focus time cannot exceed the session length") }
        return FocusSession(
            id: id, startTime: start, endTime: end, state: abandoned ? .abandoned : .completed, duration: min(planned, focus),
            pausedDuration: paused, createdAt: now, plannedDuration: planned, timeZoneIdentifier: calendar.timeZone.identifier,
            endDay: calendar.localDay(of: end))
    }
}
