import ArgumentParser
import Foundation
import GroveServer
import GroveSystem

/// `grove service install`: writes and enables the user unit (or the autostart entry).
struct ServiceInstall: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "install", abstract: "Start `grove serve` with your session, and now.",
        discussion: "Installing again replaces the service with the options given (the store is the one this command opens).")

    @OptionGroup var options: GlobalOptions
    @Option(name: .long, help: "Port the web app listens on.") var port: Int = ServerConfiguration.defaultPort
    @Flag(name: .long, help: "Sync with your other devices in the background (after `grove sync login`).") var sync = false

    func run() throws {
        guard (1...65535).contains(port) else { throw CLIError.usage("port must be between 1 and 65535") }
        let variables = CLIEnvironment.current.variables
        // The store is named in the unit: a service manager's environment may not be the shell's
        // (another GROVE_HOME or XDG_DATA_HOME would open another store).
        let db = try options.open()
        guard let path = db.path else { throw CLIError.usage("database must be a file for a service") }
        let service = Self.service(grove: GroveExecutable.path(variables), port: port, database: path, sync: sync)
        let unit = UserService.unitFile(environment: variables), autostart = UserService.autostartFile(environment: variables)
        let address = "http://127.0.0.1:\(port)/"
        if let systemd = SystemdUser.current(variables) {
            try Self.write(service.unitText, to: unit)
            try? FileManager.default.removeItem(at: autostart)
            try systemd.require(["daemon-reload"])
            // `restart`, not `start`: installing again applies new options to a running service.
            try systemd.require(["enable", UserService.unitName])
            try systemd.require(["restart", UserService.unitName])
            if options.json { return try Output.json(["kind": "systemd", "path": unit.path, "address": address]) }
            print("Installed \(unit.path): Grove starts with your session, and runs now at \(address)")
        } else {
            try Self.write(service.autostartText, to: autostart)
            if options.json { return try Output.json(["kind": "autostart", "path": autostart.path, "address": address]) }
            print(
                """
                No systemd user session here: wrote \(autostart.path).
                Grove starts with your next desktop session at \(address); until then, `grove serve --port \(port)`.
                """)
        }
    }

    /// `grove serve` as a service starts it: the port, the store when one is named, background sync.
    static func service(grove: String, port: Int, database: String?, sync: Bool) -> UserService {
        UserService(
            grove: grove,
            arguments: ["serve", "--port", "\(port)"] + (database.map { ["--database", $0] } ?? []) + (sync ? ["--sync"] : []))
    }

    static func write(_ text: String, to file: URL) throws {
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(utf8: text).write(to: file, options: .atomic)
        } catch {
            throw CLIError.failure("cannot write \(file.path): \(error.localizedDescription)")
        }
    }
}
