import ArgumentParser
import Foundation
import GroveSystem

/// `grove service uninstall`: stops the service and removes what `install` wrote.
struct ServiceUninstall: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "uninstall", abstract: "Stop starting Grove with your session.")

    @OptionGroup var options: GlobalOptions

    func run() throws {
        let variables = CLIEnvironment.current.variables
        let unit = UserService.unitFile(environment: variables), autostart = UserService.autostartFile(environment: variables)
        var removed: [String] = []
        if FileManager.default.fileExists(atPath: unit.path) {
            let systemd = SystemdUser.current(variables)
            // Stopped before its file goes: systemd forgets a unit whose file is gone.
            systemd?.run(["disable", "--now", UserService.unitName])
            try FileManager.default.removeItem(at: unit)
            systemd?.run(["daemon-reload"])
            removed.append(unit.path)
        }
        if FileManager.default.fileExists(atPath: autostart.path) {
            try FileManager.default.removeItem(at: autostart)
            removed.append(autostart.path)
        }
        guard !removed.isEmpty else {
            throw CLIError.failure("Grove's service is not installed (nothing at \(unit.path) or \(autostart.path))")
        }
        if options.json { return try Output.json(["removed": removed]) }
        print("Removed \(removed.joined(separator: " and ")): Grove no longer starts with your session.")
    }
}
