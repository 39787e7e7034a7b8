import Foundation

/// Programs on the PATH.
public enum Executable {
    /// The first executable called `name` on `PATH`, or nil.
    public static func find(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        environment["PATH"]?.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

extension Executable {
    /// Runs `path` with `arguments` to its end: its status and standard output (standard error
    /// dropped). Nil when it cannot be started. With a `timeout` (seconds), a program still running
    /// then is ended (a desktop command without its session bus can hang).
    public static func run(
        _ path: String, _ arguments: [String], environment: [String: String]? = nil, timeout: TimeInterval? = nil
    ) -> (status: Int32, output: String)? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        if let timeout {
            // `Process` answers `isRunning` and `terminate()` from any thread.
            nonisolated(unsafe) let running = process
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { if running.isRunning { running.terminate() } }
        }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
