import Foundation
import GroveCore

/// A finished pause and the focus session its choice leads to ("plant a tree instead").
public struct PauseFinish: Sendable, Equatable {
    /// The pause as it ended.
    public var pause: GatewaySession
    /// The focus session the person goes on to: started by this choice, or the one already open.
    public var focus: FocusSession?
    /// Whether `focus` was started by this choice (false when one was already open).
    public var focusStarted: Bool
}
