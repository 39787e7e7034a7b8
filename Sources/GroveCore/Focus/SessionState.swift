/// The state of a focus session (seed 000, T010).
public enum SessionState: String, Codable, CaseIterable, Sendable {
    case active
    case paused
    case completed
    case abandoned

    /// Human-readable name.
    public var displayName: String {
        switch self {
        case .active: "Active"
        case .paused: "Paused"
        case .completed: "Completed"
        case .abandoned: "Abandoned"
        }
    }

    /// The states this state may move to; terminal states move nowhere.
    public var canTransitionTo: [SessionState] {
        switch self {
        case .active: [.paused, .completed, .abandoned]
        case .paused: [.active, .abandoned]
        case .completed, .abandoned: []
        }
    }

    public func canTransition(to newState: SessionState) -> Bool { canTransitionTo.contains(newState) }

    /// Completed and abandoned sessions never change again.
    public var isTerminal: Bool { self == .completed || self == .abandoned }

    /// Active and paused sessions are "open": at most one exists at a time.
    public var isOpen: Bool { !isTerminal }
}
