import ArgumentParser
import Foundation
import GroveCore
import GroveStore
import GroveSync

/// `grove sync login URL --user NAME --password-stdin [--device-name N]`.
struct SyncLoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login", abstract: "Register this store as a device of your account on a sync server.",
        discussion: """
            The password is read from standard input, never from the command line (it would show in
            `ps` and in your shell's history). The device's token is kept in a file beside the store,
            readable by you only.
              printf '%s' "$PASS" | grove sync login http://127.0.0.1:8090 --user ada --password-stdin
            A server whose certificate comes from your own authority: give that authority's certificate
            with --ca-file (kept beside the store for every later sync), or a whole bundle in SSL_CERT_FILE.
            """)

    @OptionGroup var options: GlobalOptions
    @Argument(help: "The sync server's address, e.g. http://127.0.0.1:8090.") var url: String
    @Option(name: .long, help: "Your user name on the server.") var user: String
    @Flag(name: .long, help: "Read the password from standard input.") var passwordStdin = false
    @Option(name: .long, help: "This device's name (default: the host name).") var deviceName: String?
    @Option(name: .long, help: "A PEM file of the private authority that signed the server's certificate.", completion: .file())
    var caFile: String?

    func run() async throws {
        guard passwordStdin else { throw CLIError.usage("--password-stdin is required: give the password on standard input") }
        let password = try SyncErrors.passwordFromInput()
        let server = try HTTPSyncTransport.validate(url)
        let db = try options.open()
        let name = deviceName ?? ProcessInfo.processInfo.hostName
        let device = try await SyncErrors.translate(server: server) {
            try await SyncConnection.login(database: db, url: server, user: user, password: password, deviceName: name, caFile: caFile)
        }
        if options.json { try Output.json(device); return }
        print(
            "This store is now device \(device.deviceId.uuidString) (\(device.deviceName)) of \(device.user) on \(device.serverURL). Run `grove sync` to sync."
        )
    }
}
