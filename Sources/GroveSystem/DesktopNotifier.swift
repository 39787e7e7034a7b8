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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--app-name=Grove", title, body]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus == 0
        } catch {
            return false
        }
    }
}
