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
            Listens on 127.0.0.1:\(ServerConfiguration.defaultPort) by default, with no login. On any other address Grove needs a \
            token: --token, or one generated and stored on first use (printed once). The API takes it as \
            `Authorization: Bearer <token>`, the web app through its login page.
              grove serve
              grove serve --port 9000
              grove serve --host 0.0.0.0 --token "$(cat ~/.grove-token)"
              grove serve --sync          # and keep in step with your other devices
            """)

    @OptionGroup var options: GlobalOptions
    @Option(name: .long, help: "Address to listen on.") var host: String = "127.0.0.1"
    @Option(name: .long, help: "Port to listen on.") var port: Int = ServerConfiguration.defaultPort
    @Option(name: .long, help: "Login token (needed on non-loopback addresses).") var token: String?
    @Flag(name: .long, help: "Sync with your other devices in the background (after `grove sync login`).") var sync = false

    func run() async throws {
        guard (1...65535).contains(port) else { throw CLIError.usage("port must be between 1 and 65535") }
        StandardStream.keepRunningWhenReadersLeave()
        let db = try options.open(concurrentReads: true)
        var configuration = ServerConfiguration(
            host: host, port: port, token: token,
            assistant: try AssistantConfiguration.resolve(environment: CLIEnvironment.current.variables, database: db))
        // On a person's desktop, notifications wait while a tree grows (a frozen test clock never ends one).
        if CLIEnvironment.current.variables["GROVE_NOW"] == nil { configuration.notificationHold = .of(db) }
        if configuration.requiresAuthentication && token == nil {
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
        let shownHost = host.contains(":") ? "[\(host)]" : host
        let app = try await buildApplication(
            database: db, configuration: configuration, logger: logger, services: services,
            onServerRunning: Listening.announcer("Grove is growing at http://\(shownHost):\(port)/  (Ctrl-C to stop)"))
        try await Listening.run(app, host: host, port: port)
    }

    static func newToken() -> String { Hex.random(bytes: 24) }
}
