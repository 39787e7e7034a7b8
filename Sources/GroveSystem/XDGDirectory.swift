import Foundation

/// The XDG Base Directory rule: a variable's absolute path, else its default under `$HOME` (a relative
/// value is ignored, as the specification says).
enum XDGDirectory {
    /// `variable`'s directory (`XDG_CONFIG_HOME`, `XDG_DATA_HOME`), else `~/fallback`.
    static func resolve(_ variable: String, default fallback: String, environment: [String: String]) -> URL {
        if let value = environment[variable], value.hasPrefix("/") { return URL(fileURLWithPath: value) }
        let home = environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path
        return URL(fileURLWithPath: home).appendingPathComponent(fallback)
    }
}
