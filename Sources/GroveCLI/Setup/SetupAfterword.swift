import Foundation
import GroveSystem

/// What the setup says when it is done, in the terminal whichever way it ran (`grove setup` with
/// options, or the first run's questions): a gate and a reminder work only while `grove serve` runs,
/// and the extension is where this installation keeps it.
enum SetupAfterword {
    /// Where the browser extension is: the package's folder when installed, else the source's.
    static func extensionPlace(fileExists: (String) -> Bool = FileManager.default.fileExists(atPath:)) -> String {
        fileExists("/usr/share/grove/extension") ? "/usr/share/grove/extension" : "extension/ in Grove's source"
    }

    /// The lines to print after setting up `gated` sites and a daily reminder (`reminder`).
    static func lines(gated: Bool, reminder: Bool, variables: [String: String], extensionPlace: String = extensionPlace()) -> [String] {
        var lines: [String] = []
        if gated {
            lines.append(
                "In a browser, the extension (\(extensionPlace); README: \"The browser extension\") sends those sites through the pause.")
        }
        guard gated || reminder else { return lines }
        let what = [gated ? "The pause in the browser" : nil, reminder ? (gated ? "the reminder" : "The reminder") : nil]
            .compactMap { $0 }.joined(separator: " and ")
        let installed = [UserService.unitFile(environment: variables), UserService.autostartFile(environment: variables)]
            .contains { FileManager.default.fileExists(atPath: $0.path) }
        lines.append(
            installed
                ? "\(what) work while `grove serve` runs: it starts with your session (grove service status)."
                : "\(what) need `grove serve` running: `grove service install` starts it with your session."
        )
        return lines
    }
}
