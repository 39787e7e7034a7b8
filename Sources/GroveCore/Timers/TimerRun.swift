import Foundation

/// A named timer counting down, as a value: when it started, how long it has been paused, and
/// whether it is paused now. Like a focus session, nothing ticks: what is left is a pure function of
/// these instants and `now`, so a run survives the page, the terminal or the process that started
/// it, and every face shows the same figure.
public struct TimerRun: Hashable, Sendable, Codable {
    /// Running, paused, or run its length.
    public enum State: String, Sendable, Codable, CaseIterable {
        case running, paused, finished
    }

    public var timerId: UUID
    /// The timer's length when the run started, seconds (a later edit of the timer does not move it).
    public var duration: TimeInterval
    public var startedAt: Date
    /// Time spent paused before the current pause, seconds.
    public var pausedDuration: TimeInterval
    /// When the current pause began; nil unless paused.
    public var pausedAt: Date?

    public init(timerId: UUID, duration: TimeInterval, startedAt: Date, pausedDuration: TimeInterval = 0, pausedAt: Date? = nil) {
        self.timerId = timerId
        self.duration = duration
        self.startedAt = startedAt
        self.pausedDuration = pausedDuration
        self.pausedAt = pausedAt
    }

    /// Time counted down by `now` (never more than the length, never less than 0).
    public func elapsed(at now: Date) -> TimeInterval {
        let until = pausedAt ?? now
        return min(duration, max(0, until.timeIntervalSince(startedAt) - pausedDuration))
    }

    /// Time left at `now`.
    public func remaining(at now: Date) -> TimeInterval { max(0, duration - elapsed(at: now)) }

    /// The instant the run reaches its length (nil while paused).
    public var dueAt: Date? { pausedAt == nil ? startedAt.addingTimeInterval(pausedDuration + duration) : nil }

    public func state(at now: Date) -> State {
        if remaining(at: now) <= 0 { return .finished }
        return pausedAt == nil ? .running : .paused
    }

    /// Pauses a running run at `now`.
    public mutating func pause(at now: Date) throws(TimerRunError) {
        guard state(at: now) == .running else { throw .notRunning }
        pausedAt = max(now, startedAt)
    }

    /// Resumes a paused run at `now`, adding the pause to `pausedDuration`.
    public mutating func resume(at now: Date) throws(TimerRunError) {
        guard let pausedAt, state(at: now) == .paused else { throw .notPaused }
        pausedDuration += max(0, now.timeIntervalSince(pausedAt))
        self.pausedAt = nil
    }
}

/// A timer run asked to do what its state does not allow (a 409 in the API, exit 64 in the CLI).
public enum TimerRunError: GroveValidationError, Equatable {
    /// Pause asked of a run that is not running.
    case notRunning
    /// Resume asked of a run that is not paused.
    case notPaused
    /// Pause, resume or stop asked of a timer that is not counting down.
    case noRun(String)

    public var field: String { "state" }
    public var message: String {
        switch self {
        case .notRunning: return "This timer is not running"
        case .notPaused: return "This timer is not paused"
        case .noRun(let name): return "\(name) is not counting down: start it first"
        }
    }
}
