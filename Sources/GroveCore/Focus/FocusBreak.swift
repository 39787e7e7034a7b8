import Foundation

/// The break after a planted tree, as stored: it begins the instant the session completed and lasts
/// the length the Pomodoro cycle called for then, unless it is skipped or the next session starts
/// first. Like a session, nothing ticks: what is left is a function of `now`.
public struct FocusBreak: Codable, Sendable, Equatable {
    /// The completed session the break follows.
    public var sessionID: UUID
    public var kind: PomodoroBreak.Kind
    /// When it began: the session's end.
    public var startTime: Date
    public var duration: TimeInterval
    /// When it ended early (skipped, or the next session started); nil while it runs its course.
    public var endedEarlyAt: Date?

    public init(sessionID: UUID, kind: PomodoroBreak.Kind, startTime: Date, duration: TimeInterval, endedEarlyAt: Date? = nil) {
        self.sessionID = sessionID
        self.kind = kind
        self.startTime = startTime
        self.duration = duration
        self.endedEarlyAt = endedEarlyAt
    }

    /// When it ends (or ended): its full length, or earlier if it was cut short.
    public var endTime: Date {
        let full = startTime.addingTimeInterval(duration)
        return endedEarlyAt.map { min($0, full) } ?? full
    }

    /// Whether it is still running at `now`.
    public func isRunning(at now: Date) -> Bool { now < endTime }

    /// Break time still to go at `now`.
    public func remaining(at now: Date) -> TimeInterval { max(0, endTime.timeIntervalSince(max(now, startTime))) }

    /// Ends the break at `now` (skipped, or the next session starting).
    public mutating func end(at now: Date) {
        if isRunning(at: now) { endedEarlyAt = max(now, startTime) }
    }
}

/// A break's live status at an instant, as the faces show it (`GET /api/v1/focus/current`'s `break`).
public struct FocusBreakReport: Codable, Sendable, Equatable {
    /// The completed session the break follows.
    public var sessionID: UUID
    public var kind: PomodoroBreak.Kind
    public var startTime: Date
    public var endTime: Date
    public var duration: TimeInterval
    public var remaining: TimeInterval

    public init(_ pause: FocusBreak, now: Date) {
        sessionID = pause.sessionID
        kind = pause.kind
        startTime = pause.startTime
        endTime = pause.endTime
        duration = pause.duration
        remaining = pause.remaining(at: now)
    }
}
