import Foundation

/// Pomodoro lengths (Grove's deliberate change: the seed fixed 25 minutes).
public struct FocusPreferences: Equatable, Sendable, Codable {
    /// Focus length, seconds (1 s … 4 h; default 25 min).
    public var focusDuration: TimeInterval
    /// Short break, seconds (1 s … 1 h; default 5 min).
    public var shortBreakDuration: TimeInterval
    /// Long break, seconds (1 s … 2 h; default 15 min).
    public var longBreakDuration: TimeInterval
    /// A long break after every Nth completed session (1 … 12; default 4).
    public var longBreakInterval: Int

    public static let `default` = FocusPreferences(
        focusDuration: FocusSession.defaultPlannedDuration, shortBreakDuration: 5 * 60,
        longBreakDuration: 15 * 60, longBreakInterval: 4)

    public init(focusDuration: TimeInterval, shortBreakDuration: TimeInterval, longBreakDuration: TimeInterval, longBreakInterval: Int) {
        self.focusDuration = focusDuration
        self.shortBreakDuration = shortBreakDuration
        self.longBreakDuration = longBreakDuration
        self.longBreakInterval = longBreakInterval
    }

    /// Throws the first rule broken.
    public func validate() throws(FocusError) {
        guard FocusSession.lengthRange.contains(focusDuration) else { throw .invalidPlannedDuration(focusDuration) }
        guard (1...3600).contains(shortBreakDuration) else {
            throw .invalidPreference(field: "shortBreakDuration", rule: "Short break must be between 1 second and 1 hour")
        }
        guard (1...7200).contains(longBreakDuration) else {
            throw .invalidPreference(field: "longBreakDuration", rule: "Long break must be between 1 second and 2 hours")
        }
        guard (1...12).contains(longBreakInterval) else {
            throw .invalidPreference(field: "longBreakInterval", rule: "Long break interval must be between 1 and 12 sessions")
        }
    }

    /// The break the Pomodoro cycle calls for after the `completedInCycle`-th completed session
    /// (counting from 1): a long break every `longBreakInterval` sessions, a short one otherwise.
    public func breakAfter(completedInCycle: Int) -> PomodoroBreak {
        completedInCycle > 0 && completedInCycle % longBreakInterval == 0
            ? PomodoroBreak(kind: .long, duration: longBreakDuration)
            : PomodoroBreak(kind: .short, duration: shortBreakDuration)
    }
}

/// A break offered after a session.
public struct PomodoroBreak: Equatable, Sendable, Codable {
    public enum Kind: String, Codable, Sendable { case short, long }
    public var kind: Kind
    public var duration: TimeInterval
}
