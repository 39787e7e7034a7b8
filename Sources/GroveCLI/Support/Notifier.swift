import Foundation

/// Desktop notifications: `notify-send` where it exists, else nothing (and the caller says so).
public struct Notifier: Sendable {
    /// Path of `notify-send`, if installed.
    public let executable: String?

    public init(path: String? = ProcessInfo.processInfo.environment["PATH"]) {
        executable = path?.split(separator: ":").map { "\($0)/notify-send" }.first { FileManager.default.isExecutableFile(atPath: $0) }
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

    /// The terminal bell.
    public static func bell() {
        FileHandle.standardOutput.write(Data("\u{07}".utf8))
    }
}
