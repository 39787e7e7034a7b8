import ArgumentParser
import Foundation
import GroveCore
import GroveStore
import GroveSystem

/// `grove apps launcher APP --exec "COMMAND"`: a desktop-menu entry that pauses before the program.
struct AppsLauncher: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "launcher", abstract: "Put a menu entry on the desktop that pauses before a program starts.",
        discussion: """
            Writes $XDG_DATA_HOME/applications/grove-pause-APP.desktop (default ~/.local/share/…): \
            choosing it in the desktop's menu runs `grove pause APP -- COMMAND` in a terminal. \
            Writing it again replaces it; --remove takes it away.
              grove apps launcher youtube --exec "firefox https://www.youtube.com/"
              grove apps launcher steam --remove
            """)

    @OptionGroup var options: GlobalOptions
    @Argument(help: "The app's id (see `grove apps`).", completion: Completions.apps) var id: String
    @Option(name: .long, help: "The program to run after the pause, with its arguments (quoted as in a shell).") var exec: String?
    @Flag(name: .long, help: "Remove the menu entry instead.") var remove = false

    func run() throws {
        let db = try options.open()
        guard let app = try db.pause.app(id: id) else { throw PauseValidationError.unknownApp(id) }
        let variables = CLIEnvironment.current.variables
        let file = DesktopLauncher.directory(environment: variables).appendingPathComponent(DesktopLauncher.fileName(appId: app.id))
        if remove {
            guard exec == nil else { throw CLIError.usage("--remove takes no --exec") }
            guard FileManager.default.fileExists(atPath: file.path) else {
                throw CLIError.failure("\(app.displayName) has no launcher (\(file.path))")
            }
            try FileManager.default.removeItem(at: file)
            return options.json ? try Output.json(["removed": file.path]) : print("Removed \(file.path).")
        }
        var launcher = try Self.launcher(for: app, exec: exec, variables: variables)
        launcher.database = db.path
        try Self.write(launcher, variables: variables)
        if options.json { return try Output.json(["path": file.path, "exec": launcher.command.joined(separator: " ")]) }
        print(
            "Wrote \(file.path): \(app.displayName) in the desktop's menu now pauses first\(app.isEnabled ? "" : " (once its gate is on: `grove apps enable \(app.id)`)")."
        )
    }

    /// The launcher for `app` running `exec`; a usage error names the option when it cannot be run.
    static func launcher(for app: SocialApp, exec: String?, variables: [String: String]) throws -> DesktopLauncher {
        guard let exec else {
            throw CLIError.usage("--exec is required: the program to run after the pause, e.g. --exec \"firefox https://example.org/\"")
        }
        let command: [String]
        do { command = try ShellWords.split(exec) } catch {
            throw CLIError.usage(error == .empty ? "--exec must name a program" : "--exec has a quote that is never closed")
        }
        guard !exec.contains("\u{0}") else { throw CLIError.usage("--exec cannot contain a NUL character") }
        return DesktopLauncher(appId: app.id, name: app.displayName, command: command, grove: GroveExecutable.path(variables))
    }

    /// Writes (or replaces) the launcher's file; returns where.
    @discardableResult
    static func write(_ launcher: DesktopLauncher, variables: [String: String]) throws -> URL {
        let file = DesktopLauncher.directory(environment: variables).appendingPathComponent(DesktopLauncher.fileName(appId: launcher.appId))
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(utf8: launcher.text).write(to: file, options: .atomic)
        return file
    }
}
