/// "Why are you opening this?": the question a pause asks in turn with its quote or breath, and
/// the answers offered. Nothing is stored: the question is for the person, not for statistics.
public enum PauseReason: String, CaseIterable, Sendable, Codable {
    /// For today's intention (offered only when one is set: `GateIntent.answers`).
    case intention
    case task, habit, bored, avoiding

    /// The question, for an app's name.
    public static func question(_ appName: String) -> String { "Why are you opening \(appName)?" }

    /// Every other pause of a day asks (the 2nd, 4th… visit): often enough to be noticed, not so often
    /// that it is skipped unread; `attemptsToday` counts the pauses before this one.
    public static func asks(attemptsToday: Int) -> Bool { attemptsToday % 2 == 1 }

    /// The answer as offered.
    public var label: String {
        switch self {
        case .intention: "For today's intention"
        case .task: "Something specific to do"
        case .habit: "Habit, without thinking"
        case .bored: "Bored"
        case .avoiding: "Avoiding something"
        }
    }

    /// What the pause says back.
    public var reply: String {
        switch self {
        case .intention: "Then go straight to it, and come back as soon as it is done."
        case .task: "Then do just that one thing, and come back."
        case .habit: "A habit opens it without asking you. Exit is the door you put here."
        case .bored: "Boredom passes in a minute or two. A short focus session is one tap away."
        case .avoiding: "Maybe one small step on it instead: plant a tree for ten minutes."
        }
    }
}
