import ArgumentParser
import Foundation
import GroveBuildInfo
import GroveCore
import GroveStore
import GroveSync
import GroveSystem
import Hummingbird
import Logging

/// `grove sync-server`: the server your devices sync through.
struct SyncServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync-server", abstract: "Run a sync server for your devices.",
        discussion: """
            Keeps every account's changes in one SQLite file (or, with --postgres URL, in PostgreSQL, for
            several instances behind a load balancer) and orders them. Create an account, then
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
        do {
            return try SQLiteSyncStore(path: path, createDirectory: given == nil)
        } catch let error as StoreError where error.isBadInput {
            throw CLIError.usage(error.errorDescription ?? "\(error)")
        } catch {
            throw CLIError.failure("cannot open the sync server's database \(path): \(error)")
        }
    }

    static func logger() -> Logger {
        var logger = Logger(label: "grove.sync-server")
        logger.logLevel = ProcessInfo.processInfo.environment["GROVE_LOG"].flatMap(Logger.Level.init(rawValue:)) ?? .notice
        return logger
    }

    /// Runs `body` on the store the options name: PostgreSQL with `--postgres`, else the SQLite file.
    static func withStore<T>(_ options: SyncServerStoreOptions, _ body: (any SyncStore) async throws -> T) async throws -> T {
        guard let url = options.postgres else { return try await body(openStore(options.global.database)) }
        #if Postgres
            let deployment = try postgres(url, options, logger: logger())
            do { return try await deployment.withRunning { try await body($0) } } catch let error as SyncServerError {
                throw error
            } catch let error as SyncStoreSchemaError {
                throw CLIError.failure(error.description)
            } catch let error as CLIError { throw error } catch {
                throw CLIError.failure("cannot use the PostgreSQL database at \(PostgresURLRedaction.redacted(url)): \(error)")
            }
        #else
            _ = url
            throw withoutPostgres
        #endif
    }

    #if Postgres
        /// The pool `--postgres URL --pool-size N` name; a URL that cannot be used is a usage error.
        static func postgres(_ url: String, _ options: SyncServerStoreOptions, logger: Logger) throws -> PostgresDeployment {
            do { return try PostgresDeployment(url: url, poolSize: options.poolSize, logger: logger) } catch let error as PostgresURLError {
                throw CLIError.usage(error.description)
            }
        }
    #endif

    /// `--postgres` given to a Grove built without the `Postgres` trait.
    static let withoutPostgres = CLIError.usage("--postgres needs a Grove built with PostgreSQL support: swift build --traits Postgres")
}

/// Where the sync server keeps its data: `--database PATH` (SQLite, the default) or `--postgres URL`.
struct SyncServerStoreOptions: ParsableArguments {
    /// `--database PATH`: the server's SQLite file (the option every command shares).
    @OptionGroup var global: GlobalOptions
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Keep the data in PostgreSQL instead: postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=require].",
            valueName: "url"))
    var postgres: String?
    @Option(name: .long, help: "With --postgres: the most connections this instance opens (1 to 1000).") var poolSize: Int = 8

    func validate() throws {
        guard (1...1000).contains(poolSize) else { throw ValidationError("--pool-size is 1 to 1000") }
        if postgres != nil, global.database != nil { throw ValidationError("--database and --postgres name two stores: give one") }
    }
}

/// `grove sync-server [--host] [--port] [--database PATH | --postgres URL]`.
struct SyncServerRunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "run", abstract: "Serve /sync/v1 (the default).")

    @Option(name: .long, help: "Address to listen on.") var host: String = "127.0.0.1"
    @Option(name: .long, help: "Port to listen on.") var port: Int = 8090
    @OptionGroup var tls: TLSOptions
    @Option(
        name: .long,
        help: "The address of a proxy in front (nginx: 127.0.0.1) whose X-Forwarded-For names the client; repeatable. No other is believed."
    )
    var trustedProxy: [String] = []
    @Option(
        name: .long, help: "A file holding the bearer token /metrics asks for; without it, /metrics answers this machine only.",
        completion: .file())
    var metricsTokenFile: String?
    @Option(name: .long, help: "Days every replaced change is kept, so that devices can go back to any instant in them (1 to 3650).")
    var keepHistory: Int = 30
    @OptionGroup var store: SyncServerStoreOptions

    func run() async throws {
        guard (1...65535).contains(port) else { throw CLIError.usage("port must be between 1 and 65535") }
        guard (1...3650).contains(keepHistory) else { throw CLIError.usage("--keep-history is 1 to 3650 days") }
        let keep = TimeInterval(keepHistory) * 86_400
        StandardStream.keepRunningWhenReadersLeave()
        let logger = SyncServerCommand.logger()
        var configuration = SyncServerConfiguration(host: host, port: port)
        do { configuration.access.trustedProxies = try SyncServerAccess.proxies(trustedProxy) } catch { throw CLIError.usage(error.detail) }
        if let metricsTokenFile { configuration.access.metricsToken = try Self.metricsToken(metricsTokenFile) }
        configuration.tls = try tls.load()
        let scheme = configuration.tls == nil ? "http" : "https"
        if !["127.0.0.1", "::1", "localhost"].contains(host) && configuration.tls == nil {
            Output.note(
                "grove: listening on \(host): give it --tls-certificate or a TLS proxy in front (devices send a password once, then tokens)\n"
            )
        }
        let shownHost = host.contains(":") ? "[\(host)]" : host
        if let url = store.postgres {
            #if Postgres
                let deployment = try SyncServerCommand.postgres(url, store, logger: logger)
                let service = SyncService(store: deployment.store, metrics: SyncMetrics(commit: Build.commit), historyKeep: keep)
                let app = try buildSyncApplication(
                    service: service, configuration: configuration, services: deployment.services(pokes: service.pokes),
                    beforeStart: [{ try await deployment.migrate() }], logger: logger,
                    onServerRunning: Listening.announcer(
                        "Grove Sync (PostgreSQL) is listening at \(scheme)://\(shownHost):\(port)/sync/v1  (Ctrl-C to stop)"))
                try await Listening.run(app, host: host, port: port)
                return
            #else
                _ = url
                throw SyncServerCommand.withoutPostgres
            #endif
        }
        let service = SyncService(
            store: try SyncServerCommand.openStore(store.global.database), metrics: SyncMetrics(commit: Build.commit), historyKeep: keep)
        let app = try buildSyncApplication(
            service: service, configuration: configuration, logger: logger,
            onServerRunning: Listening.announcer("Grove Sync is listening at \(scheme)://\(shownHost):\(port)/sync/v1  (Ctrl-C to stop)"))
        try await Listening.run(app, host: host, port: port)
    }
}

extension SyncServerRunCommand {
    /// The token in `path`: one line of at least 16 characters.
    static func metricsToken(_ path: String) throws -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
            let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8)
        else { throw CLIError.usage("--metrics-token-file: \(path) is not a readable file") }
        let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard token.count >= 16, !token.contains(where: { $0.isWhitespace || $0.isNewline }) else {
            throw CLIError.usage("--metrics-token-file: the token is one line of at least 16 characters, without spaces")
        }
        return token
    }
}

/// A connection URL with its password hidden (for messages and logs).
enum PostgresURLRedaction {
    static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "***"
        return components.string ?? "the --postgres URL"
    }
}

/// `grove sync-server user add|list|disable|enable`.
struct SyncServerUserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user", abstract: "Manage the server's accounts.",
        subcommands: [Add.self, List.self, Disable.self, Enable.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Create an account (the password is read from standard input).")
        @Argument(help: "The user name.") var name: String
        @Flag(name: .long, help: "Read the password from standard input.") var passwordStdin = false
        @OptionGroup var store: SyncServerStoreOptions

        func run() async throws {
            guard passwordStdin else { throw CLIError.usage("--password-stdin is required: give the password on standard input") }
            let password = try SyncErrors.passwordFromInput()
            let user: SyncUser
            do {
                user = try await SyncServerCommand.withStore(store) {
                    try await SyncService(store: $0).addUser(name: name, password: password)
                }
            } catch let error as SyncServerError {
                throw CLIError(message: error.detail, exitCode: error.status == 422 ? 64 : 1)
            }
            // Names are kept in one form (SyncUserName): say which, when it is not what was typed.
            print(user.name == name ? "Added \(name)." : "Added \(user.name) (user names are kept in this form).")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the accounts.")
        @OptionGroup var store: SyncServerStoreOptions
        func run() async throws {
            for user in try await SyncServerCommand.withStore(store, { try await $0.users() }) {
                print("\(user.name)\(user.disabled ? "  (disabled)" : "")")
            }
        }
    }

    struct Disable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "disable", abstract: "Disable an account: its devices can no longer sync.")
        @Argument(help: "The user name.") var name: String
        @OptionGroup var store: SyncServerStoreOptions
        func run() async throws { try await setDisabled(name, true, store) }
    }

    struct Enable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "enable", abstract: "Enable a disabled account again.")
        @Argument(help: "The user name.") var name: String
        @OptionGroup var store: SyncServerStoreOptions
        func run() async throws { try await setDisabled(name, false, store) }
    }

    /// `disable` and `enable`: one switch on the account.
    static func setDisabled(_ name: String, _ disabled: Bool, _ store: SyncServerStoreOptions) async throws {
        let changed = try await SyncServerCommand.withStore(store) { store -> String? in
            guard let user = try await SyncService(store: store).user(named: name),
                try await store.setUser(named: user.name, disabled: disabled)
            else { return nil }
            return user.name
        }
        guard let changed else { throw CLIError.usage("no user named \(name)") }
        print("\(disabled ? "Disabled" : "Enabled") \(changed).")
    }
}
