import ArgumentParser
import Foundation
import GroveServer
import GroveSystem

/// `grove service unit`: prints the user unit without installing it, for a package's
/// /usr/lib/systemd/user/grove.service (`systemctl --user enable --now grove` then runs it) or a
/// review before `install`.
struct ServiceUnit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unit", abstract: "Print the systemd user unit `install` would write, without installing it.",
        discussion: """
            The unit names no store unless --database is given: it then serves the default store of \
            whoever starts it ($XDG_DATA_HOME/grove/grove.sqlite), as a packaged unit must.
              grove service unit --executable /usr/bin/grove > /usr/lib/systemd/user/grove.service
            """)

    /// `--database`: the store the unit serves (default: each user's own). The shared group, since
    /// the root command claims `--database` for it.
    @OptionGroup var options: GlobalOptions
    @Option(name: .long, help: "Port the web app listens on.") var port: Int = ServerConfiguration.defaultPort
    @Flag(name: .long, help: "Sync with your other devices in the background (after `grove sync login`).") var sync = false
    @Option(name: .long, help: "The grove executable the unit starts (absolute; default: this one).", completion: .file())
    var executable: String?

    func run() throws {
        guard (1...65535).contains(port) else { throw CLIError.usage("port must be between 1 and 65535") }
        if let executable, !executable.hasPrefix("/") { throw CLIError.usage("executable must be an absolute path, like /usr/bin/grove") }
        let service = ServiceInstall.service(
            grove: executable ?? GroveExecutable.path(CLIEnvironment.current.variables), port: port,
            database: options.database.map { URL(fileURLWithPath: $0).standardizedFileURL.path }, sync: sync)
        print(service.unitText, terminator: "")
    }
}
