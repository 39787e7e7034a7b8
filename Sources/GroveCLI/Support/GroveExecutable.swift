import Foundation

/// This `grove`'s absolute path, for what runs it later without a shell (menu entries, the user
/// service): `GROVE_EXECUTABLE` overrides it, for a wrapper script.
enum GroveExecutable {
    static func path(_ variables: [String: String]) -> String {
        if let path = variables["GROVE_EXECUTABLE"], path.hasPrefix("/") { return path }
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        return URL(fileURLWithPath: CommandLine.arguments.first ?? "grove").standardizedFileURL.path
    }
}
