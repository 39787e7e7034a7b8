import Foundation

/// Why a focus operation was refused.
public enum FocusError: GroveValidationError, Equatable {
    /// The state machine does not allow this move (seed 000's `canTransitionTo`).
    case illegalTransition(from: SessionState, to: SessionState)
    /// A session is already active or paused; only one may be open at a time.
    case sessionAlreadyOpen
    /// There is no active or paused session to act on.
    case noOpenSession
    /// The planned length is outside 1 minute … 4 hours (`FocusSession.lengthRange`), or a stored one
    /// outside 1 second … 4 hours.
    case invalidPlannedDuration(TimeInterval)
    /// A logged session ends before it starts, or its pauses do not fit inside it.
    case invalidInterval(String)
    /// A break length or long-break interval is out of range.
    case invalidPreference(field: String, rule: String)
    /// A running or paused session cannot be deleted (it is abandoned instead).
    case deleteRunning
    /// Only an open-ended session is stopped; a planned one ends when its time is up.
    case notOpenEnded
    /// There is no break running to skip.
    case noBreak

    public var field: String {
        switch self {
        case .illegalTransition, .sessionAlreadyOpen, .noOpenSession, .deleteRunning, .notOpenEnded, .noBreak: "state"
        case .invalidPlannedDuration: "plannedDuration"
        case .invalidInterval: "endTime"
        case .invalidPreference(let field, _): field
        }
    }

    public var message: String {
        switch self {
        case .illegalTransition(let from, let to):
            "A \(from.displayName.lowercased()) session cannot become \(to.rawValue)"
        case .sessionAlreadyOpen: "A focus session is already running; finish or abandon it first"
        case .noOpenSession: "There is no active or paused focus session"
        case .invalidPlannedDuration(let length):
            length < FocusSession.shortestTree
                ? "Session length must be between 1 minute and 4 hours: a tree costs at least a minute of focus"
                : "Session length must be at most 4 hours"
        case .invalidInterval(let rule): rule
        case .invalidPreference(_, let rule): rule
        case .deleteRunning: "That session is still running: abandon it (grove focus abandon) instead of deleting it"
        case .notOpenEnded:
            "This session ends by itself when its time is up; abandon it to end it now (no tree), or start one with --open to stop it when you like"
        case .noBreak: "There is no break running"
        }
    }
}
