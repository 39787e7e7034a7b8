import ArgumentParser
import Foundation
import GroveCore
import GroveStore
import GroveSync
import Hummingbird
import Logging

/// `grove sync-server`: the server your devices sync through.
struct SyncServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync-server", abstract: "Run a sync server for your devices.",
        discussion: """
            Keeps every account's changes in one SQLite file and orders them. Create an account, then
            point each device at it with `grove sync login`:
              printf '%s' "$PASS" | grove sync-server user add ada --password-stdin
              grove sync-server --port 8090
            On an address other than loopback, put it behind a TLS-terminating proxy: devices send
            passwords (once) and tokens.
            """,
        subcommands: [SyncServerRunCommand.self, SyncServerUserCommand.self],
        defaultSubcommand: SyncServerRunCommand.self)

    /// `$GROVE_HOME/sync-server.sqlite`, else beside Grove's store in the user's data directory.
    static func defaultDatabase(_ variables: [String: String]) -> String {
        (AppDatabase.defaultPath(environment: variables) as NSString).deletingLastPathComponent + "/sync-server.sqlite"
    }

    static func openStore(_ given: String?) throws -> SQLiteSyncStore {
        let environment = CLIEnvironment.current
        let path = given.map(environment.resolve) ?? defaultDatabase(environment.variables)
        do { return try SQLiteSyncStore(path: path) } catch { throw CLIError.failure("cannot open the sync server's database \(path): \(error)") }
    }
}

/// `grove sync-server [--host] [--port] [--database]`.
struct SyncServerRunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "run", abstract: "Serve /sync/v1 (the default).")

    @Option(name: .long, help: "Address to listen on.") var host: String = "127.0.0.1"
    @Option(name: .long, help: "Port to listen on.") var port: Int = 8090
    /// `--database PATH`: the server's SQLite file (the option every command shares).
    @OptionGroup var options: GlobalOptions
    var database: String? { options.database }

    func run() async throws {
        guard (1 ... 65535).contains(port) else { throw CLIError.usage("port must be between 1 and 65535") }
        let store = try SyncServerCommand.openStore(database)
        var logger = Logger(label: "grove.sync-server")
        logger.logLevel = ProcessInfo.processInfo.environment["GROVE_LOG"].flatMap(Logger.Level.init(rawValue:)) ?? .notice
        let service = SyncService(store: store)
        let app = buildSyncApplication(service: service, configuration: SyncServerConfiguration(host: host, port: port), logger: logger)
        if !["127.0.0.1", "::1", "localhost"].contains(host) {
            Output.note("grove: listening on \(host): serve it behind a TLS proxy (devices send a password once, then tokens)\n")
        }
        let shownHost = host.contains(":") ? "[\(host)]" : host
        print("Grove Sync is listening at http://\(shownHost):\(port)/sync/v1  (Ctrl-C to stop)")
        try await app.runService()
    }
}

/// `grove sync-server user add|list|disable|enable`.
struct SyncServerUserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user", abstract: "Manage the server's accounts.",
        subcommands: [Add.self, List.self, Disable.self, Enable.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create an account (the password is read from standard input).")
        @Argument(help: "The user name.") var name: String
        @Flag(name: .long, help: "Read the password from standard input.") var passwordStdin = false
        /// `--database PATH`: the server's SQLite file (the option every command shares).
        @OptionGroup var options: GlobalOptions
        var database: String? { options.database }

        func run() async throws {
            guard passwordStdin else { throw CLIError.usage("--password-stdin is required: give the password on standard input") }
            let password = try SyncErrors.passwordFromInput()
            let service = SyncService(store: try SyncServerCommand.openStore(database))
            do {
                try await service.addUser(name: name, password: password)
            } catch let error as SyncServerError {
                throw CLIError(message: error.detail, exitCode: error.status == 422 ? 64 : 1)
            }
            print("Added \(name).")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the accounts.")
        /// `--database PATH`: the server's SQLite file (the option every command shares).
        @OptionGroup var options: GlobalOptions
        var database: String? { options.database }
        func run() async throws {
            for user in try await SyncServerCommand.openStore(database).users() {
                print("\(user.name)\(user.disabled ? "  (disabled)" : "")")
            }
        }
    }

    struct Disable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Disable an account: its devices can no longer sync.")
        @Argument(help: "The user name.") var name: String
        @OptionGroup var options: GlobalOptions
        func run() async throws { try await setDisabled(name, true, database: options.database) }
    }

    struct Enable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Enable a disabled account again.")
        @Argument(help: "The user name.") var name: String
        @OptionGroup var options: GlobalOptions
        func run() async throws { try await setDisabled(name, false, database: options.database) }
    }

    /// `disable` and `enable`: one switch on the account.
    static func setDisabled(_ name: String, _ disabled: Bool, database: String?) async throws {
        guard try await SyncServerCommand.openStore(database).setUser(named: name, disabled: disabled) else { throw CLIError.usage("no user named \(name)") }
        print("\(disabled ? "Disabled" : "Enabled") \(name).")
    }
}
