import Foundation
import GroveCore

/// What an import brought in, counted per kind: the same summary on every face.
public struct ImportSummary: Codable, Sendable, Equatable {
    public var focusSessions: Int
    public var timers: Int
    public var intentions: Int
    public var gatewaySessions: Int
    public var themes: Int

    /// "Imported 3 focus sessions, 1 timer, 2 intentions, 0 pauses."
    public var sentence: String {
        func count(_ n: Int, _ one: String, _ many: String) -> String { "\(n) \(n == 1 ? one : many)" }
        return "Imported \(count(focusSessions, "focus session", "focus sessions")), \(count(timers, "timer", "timers")), "
            + "\(count(intentions, "intention", "intentions")), \(count(gatewaySessions, "pause", "pauses"))."
    }
}
