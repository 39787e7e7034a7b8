import Foundation

/// Programs on the PATH.
public enum Executable {
    /// The first executable called `name` on `PATH`, or nil.
    public static func find(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        environment["PATH"]?.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
