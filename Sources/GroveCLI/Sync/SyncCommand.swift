import ArgumentParser
import Foundation
import GroveCore
import GroveStore
import GroveSync

/// `grove sync`: this device and the others of the account, through a sync server.
struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync", abstract: "Sync this store with your other devices.",
        discussion: """
            Link once, then sync whenever you like (or run `grove serve --sync`, which syncs by itself):
              grove sync login http://127.0.0.1:8090 --user ada --password-stdin
              grove sync
              grove sync status
            Offline edits are kept and sent the next time; conflicts merge field by field by a hybrid \
            logical clock, so nothing asks "keep mine or theirs?".
            """,
        subcommands: [
            SyncNowCommand.self, SyncLoginCommand.self, SyncStatusCommand.self, SyncDevicesCommand.self, SyncRevokeCommand.self,
            SyncLogoutCommand.self,
        ],
        defaultSubcommand: SyncNowCommand.self)
}

/// `grove sync` (`grove sync now`): push and pull until caught up.
struct SyncNowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "now", abstract: "Push local changes and pull the others' until caught up (the default).")

    @OptionGroup var options: GlobalOptions
    @Flag(name: .long, help: "Start over with the server: pull everything again and resend every local row (nothing local is lost).")
    var reset = false

    func run() async throws {
        let db = try options.open()
        let connection = try SyncConnection(database: db)
        let summary = try await SyncErrors.translate(server: connection.device.serverURL) { () async throws -> SyncSummary in
            var engine = try connection.engine()
            if reset {
                let status = try await engine.transport.status()
                try db.sync.restart(deviceId: connection.device.deviceId, lastMutationId: status.lastMutationId)
            }
            return try await engine.sync()
        }
        if options.json { try Output.json(summary); return }
        for note in summary.notes { Output.note("grove: \(note)\n") }
        print(
            "Synced with \(connection.device.serverURL): sent \(summary.pushed), received \(summary.pulled) (\(summary.applied) applied)"
                + (summary.pending > 0 ? ", \(summary.pending) still to send" : "")
                + (summary.parked > 0 ? ", \(summary.parked) waiting" : "") + ".")
    }
}

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

/// `grove sync devices`.
struct SyncDevicesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "devices", abstract: "List the devices of your account.")

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let db = try options.open()
        let connection = try SyncConnection(database: db)
        let devices = try await SyncErrors.translate(server: connection.device.serverURL) { try await connection.transport().devices() }
        if options.json { try Output.json(devices); return }
        for device in devices {
            let this = device.deviceId == connection.device.deviceId ? " (this device)" : ""
            let seen = device.lastSeen.map { "last seen \(GroveExport.formatInstant($0))" } ?? "never seen"
            print("\(device.deviceId.uuidString)  \(device.name)\(this)  \(device.revoked ? "revoked" : seen)")
        }
    }
}

/// `grove sync revoke ID`.
struct SyncRevokeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "revoke", abstract: "Revoke a device's token (a lost laptop).")

    @OptionGroup var options: GlobalOptions
    @Argument(help: "The device's id (see grove sync devices).") var id: String

    func run() async throws {
        guard let device = UUID(uuidString: id) else {
            throw CLIError.usage("id must be a device id (see grove sync devices), got \(id.prefix(60))")
        }
        let db = try options.open()
        let connection = try SyncConnection(database: db)
        try await SyncErrors.translate(server: connection.device.serverURL) { try await connection.transport().revoke(device) }
        print("Revoked \(device.uuidString): it can no longer sync.")
    }
}

/// `grove sync logout`.
struct SyncLogoutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout", abstract: "Unlink this store from the sync server (your data stays).")

    @OptionGroup var options: GlobalOptions

    func run() throws {
        let db = try options.open()
        let device = try db.sync.device()
        let pending = try device.map { _ in try db.sync.pendingCount() } ?? 0
        try db.sync.end()
        if let path = db.path {
            DeviceToken.remove(forStore: path)
            DeviceCA.remove(forStore: path)
        }
        guard let device else { print("This store was not linked to a sync server."); return }
        print("Unlinked from \(device.serverURL)." + (pending > 0 ? " \(pending) change\(pending == 1 ? " was" : "s were") not sent." : ""))
    }
}
