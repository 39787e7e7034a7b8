import ArgumentParser
import Foundation
import GroveCore
import GroveRemote
import GroveServer
import GroveStore
import GroveSync
import GroveSystem
import Hummingbird
import Logging
import ServiceLifecycle

/// `grove serve`: the web app and the JSON API over the same store as the command line.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Run the web app and the JSON API.",
        discussion: """
            Listens on 127.0.0.1:\(ServerConfiguration.defaultPort) by default, with no login for this machine. \
            Every request from elsewhere — another address, HTTPS, a proxy for a --public-origin — needs a \
            login: a browser logs in with the password set by `grove serve password`, scripts send the token \
            (--token, or one generated and stored on first use, printed once) as `Authorization: Bearer <token>`.
              grove serve
              grove serve --port 9000
              grove serve password                 # the password your phone logs in with
              grove serve --public-origin https://desktop.tail1234.ts.net   # behind `tailscale serve`
              grove serve --host 0.0.0.0 --tls-certificate cert.pem --tls-key key.pem
              grove serve --sync                   # and keep in step with your other devices
            """,
        subcommands: [ServePasswordCommand.self, ServeBrowsersCommand.self, ServeSignOutCommand.self])

    @OptionGroup var options: GlobalOptions
    @Option(name: .long, help: "Address to listen on.") var host: String = "127.0.0.1"
    @Option(name: .long, help: "Port to listen on.") var port: Int = ServerConfiguration.defaultPort
    @Option(name: .long, help: "Login token (needed on non-loopback addresses).") var token: String?
    @Option(
        name: .long,
        help: "An address a TLS proxy forwards here (https://name[:port]); repeatable. Requests for it need a login.")
    var publicOrigin: [String] = []
    @OptionGroup var tls: TLSOptions
    @Flag(name: .long, help: "Sync with your other devices in the background (after `grove sync login`).") var sync = false

    func run() async throws {
        guard (1...65535).contains(port) else { throw CLIError.usage("port must be between 1 and 65535") }
        StandardStream.keepRunningWhenReadersLeave()
        let db = try options.open(concurrentReads: true)
        var configuration = ServerConfiguration(
            host: host, port: port, token: token,
            assistant: try AssistantConfiguration.resolve(environment: CLIEnvironment.current.variables, database: db))
        configuration.publicOrigins = try publicOrigin.map { text in
            guard let origin = PublicOrigin(text) else {
                throw CLIError.usage("--public-origin: \(text) is not an origin: give https://name or https://name:port, nothing after it")
            }
            return origin
        }
        configuration.tls = try tls.load()
        // On a person's desktop, notifications wait while a tree grows (a frozen test clock never ends one).
        if CLIEnvironment.current.variables["GROVE_NOW"] == nil { configuration.notificationHold = .of(db) }
        if configuration.hasLogin && token == nil {
            let stored = try db.serverToken(orCreate: Self.newToken)
            configuration.token = stored.token
            if stored.created {
                print("Generated a login token (stored with your data): \(stored.token)")
            } else {
                print("Login token: the one stored with your data (`grove serve` printed it the first time).")
            }
        }
        if let token = configuration.token, token.count < 16 { throw CLIError.usage("token must be at least 16 characters") }
        var logger = Logger(label: "grove.server")
        logger.logLevel = ProcessInfo.processInfo.environment["GROVE_LOG"].flatMap(Logger.Level.init(rawValue:)) ?? .notice
        var services: [any Service] = []
        if sync {
            let connection = try SyncConnection(database: db)
            _ = try connection.transport()
            services.append(
                BackgroundSync(
                    database: db, makeTransport: { try connection.transport() }, makeEngine: { try connection.engine() },
                    clock: ContinuousClock(), logger: Logger(label: "grove.sync")))
        }
        if configuration.hasLogin, try db.webPasswordHash() == nil {
            Output.note("grove: browsers from elsewhere log in with the token until you set a password: grove serve password\n")
        }
        if !configuration.isLoopback, configuration.tls == nil {
            Output.note(
                "grove: listening on \(host) without TLS: passwords cross the network in the clear; give --tls-certificate or a TLS proxy\n"
            )
        }
        let shownHost = host.contains(":") ? "[\(host)]" : host, scheme = configuration.tls == nil ? "http" : "https"
        let origins = configuration.publicOrigins.map { " and \($0)/" }.joined()
        let app = try await buildApplication(
            database: db, configuration: configuration, logger: logger, services: services,
            onServerRunning: Listening.announcer("Grove is growing at \(scheme)://\(shownHost):\(port)/\(origins)  (Ctrl-C to stop)"))
        try await Listening.run(app, host: host, port: port)
    }

    static func newToken() -> String { Hex.random(bytes: 24) }
}
