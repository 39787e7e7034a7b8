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
            End to end: the passphrase on a second line unlocks an encrypted account on this device, or
            encrypts a plain one (its recovery code is shown once):
              printf '%s\\n%s\\n' "$PASS" "$PASSPHRASE" | grove sync login URL --user ada --password-stdin --passphrase-stdin
            New accounts are encrypted by default: linked without a passphrase, a device sends nothing to
            a new account until `grove sync encrypt` — or until you say --plain (values travel readable
            by the server's operator; an account whose devices sync in plain already goes on in plain).
            A server whose certificate comes from your own authority: give that authority's certificate
            with --ca-file (kept beside the store for every later sync), or a whole bundle in SSL_CERT_FILE.
            """)

    @OptionGroup var options: GlobalOptions
    @Argument(help: "The sync server's address, e.g. http://127.0.0.1:8090.") var url: String
    @Option(name: .long, help: "Your user name on the server.") var user: String
    @Flag(name: .long, help: "Read the password from standard input.") var passwordStdin = false
    @Flag(
        name: .long,
        help: "Then read a passphrase (the second line): unlock the encrypted account with it, or encrypt a plain one.")
    var passphraseStdin = false
    @Flag(name: .long, help: "Sync a new account unencrypted (the server's operator can read what it keeps).")
    var plain = false
    @Option(name: .long, help: "This device's name (default: the host name).") var deviceName: String?
    @Option(name: .long, help: "A PEM file of the private authority that signed the server's certificate.", completion: .file())
    var caFile: String?

    func run() async throws {
        guard passwordStdin else { throw CLIError.usage("--password-stdin is required: give the password on standard input") }
        guard !(plain && passphraseStdin) else {
            throw CLIError.usage("--plain and --passphrase-stdin contradict each other: a passphrase encrypts the account")
        }
        let password = try SyncErrors.passwordFromInput()
        let passphrase = try passphraseStdin ? SyncErrors.secretFromInput("--passphrase-stdin", what: "passphrase (second line)") : nil
        if let passphrase { try AccountKeys.checkStrength(passphrase) }
        let server = try HTTPSyncTransport.validate(url)
        let db = try options.open()
        let name = deviceName ?? ProcessInfo.processInfo.hostName
        let device = try await SyncErrors.translate(server: server) {
            try await SyncConnection.login(
                database: db, url: server, user: user, password: password, passphrase: passphrase, deviceName: name, caFile: caFile,
                plain: plain)
        }
        let connection = try SyncConnection(database: db)
        // With a passphrase: the encrypted account unlocked here, or the plain one encrypted, in this step.
        var sentence = " Run `grove sync` to sync."
        var recovery: RecoveryCode?
        if let key = connection.key {
            // The account logs in with its passphrase: the login unlocked it too.
            sentence = " Unlocked with key \(key.keyId) (end to end). Run `grove sync` to sync."
        } else if let passphrase {
            sentence = try await SyncErrors.translate(server: server) { () async throws -> String in
                guard try await connection.transport().keys() != nil else {
                    let done = try await connection.encrypt(passphrase: passphrase)
                    recovery = done.recovery
                    return " The account is now encrypted end to end with key \(done.key.keyId); \(done.sync.pushed) values sent, sealed."
                }
                let key = try await connection.unlock(passphrase: passphrase)
                return " Unlocked with key \(key.keyId) (end to end). Run `grove sync` to sync."
            }
        } else if let envelope = (try? await connection.transport().keys()) ?? nil {
            // An encrypted account: said now, with what to do, rather than at the first sync.
            sentence =
                " The account is encrypted end to end (key \(envelope.keyId)): run `grove sync unlock --passphrase-stdin` once, then `grove sync`."
        } else if device.awaitingKey, let status = try? await connection.transport().status(), status.head == 0 {
            sentence =
                " The account is new, and Grove encrypts it end to end before anything is sent: run `grove sync encrypt --passphrase-stdin` (or log in again with --plain to sync unencrypted)."
        }
        // The recovery code is shown this once, so a JSON answer carries it too.
        if options.json { try Output.json(LoginAnswer(device: device, recoveryCode: recovery?.description)); return }
        print(
            "This store is now device \(device.deviceId.uuidString) (\(device.deviceName)) of \(device.user) on \(device.serverURL)."
                + sentence)
        recovery?.print()
    }

    /// `--json`: the device, and the recovery code when this login encrypted the account.
    struct LoginAnswer: Encodable {
        var device: SyncDevice
        var recoveryCode: String?

        private enum CodingKeys: String, CodingKey { case recoveryCode }

        func encode(to encoder: any Encoder) throws {
            try device.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(recoveryCode, forKey: .recoveryCode)
        }
    }
}
