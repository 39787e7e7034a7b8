import Foundation

/// Desktop notifications: `notify-send` where it exists, else nothing (callers can say so).
/// Used by the server's reminders and by the command line's sessions and timers.
public struct DesktopNotifier: Sendable {
    /// Path of `notify-send`, if installed.
    public let executable: String?

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        executable = Executable.find("notify-send", environment: environment)
    }

    public var isAvailable: Bool { executable != nil }

    /// Sends a notification; returns whether one was sent.
    @discardableResult
    public func send(title: String, body: String) -> Bool {
        guard let executable else { return false }
        // Bounded: a notification daemon that hangs delays nothing for long.
        return Executable.run(executable, ["--app-name=Grove", title, body], timeout: 10)?.status == 0
    }
}
