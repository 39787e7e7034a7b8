import ArgumentParser
import Foundation
import GroveCore
import GroveStore
import GroveSync

/// `grove sync passphrase --passphrase-stdin`: a new passphrase for the encrypted account.
struct SyncPassphraseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passphrase", abstract: "Change your encrypted account's passphrase (nothing is sent again).",
        discussion: """
            The account's key stays; only its wrapping changes, so nothing is re-sealed and your other \
            devices keep syncing with the key they hold. The new passphrase is what `grove sync unlock` \
            asks from now on.
              printf '%s' "$NEW" | grove sync passphrase --passphrase-stdin
            """)

    @OptionGroup var options: GlobalOptions
    @Flag(name: .long, help: "Read the new passphrase from standard input.") var passphraseStdin = false

    func run() async throws {
        guard passphraseStdin else { throw CLIError.usage("--passphrase-stdin is required: give the new passphrase on standard input") }
        let passphrase = try SyncErrors.secretFromInput("--passphrase-stdin", what: "passphrase")
        try AccountKeys.checkStrength(passphrase)
        let db = try options.open()
        let connection = try SyncConnection(database: db)
        guard let key = connection.key else {
            throw CLIError.usage("This device holds no key: run `grove sync unlock` first (or `grove sync encrypt` for a plain account)")
        }
        try await SyncErrors.translate(server: connection.device.serverURL) {
            let http = try connection.transport()
            guard let envelope = try await http.keys() else { throw AccountKeyError.serverNotEncrypted }
            guard envelope.keyId == key.keyId else { throw AccountKeyError.otherKey(held: key.keyId, named: envelope.keyId) }
            let rewrapped = try AccountKeys.rewrap(
                envelope, key: key, passphrase: passphrase, device: connection.device.deviceName, now: db.environment.now())
            try await http.setKeys(KeyEnvelopeChange(envelope: rewrapped, expectedKeyId: key.keyId))
        }
        if options.json { try Output.json(["keyId": key.keyId]); return }
        print("The passphrase is changed: key \(key.keyId) is wrapped with the new one. Your other devices keep syncing as they are.")
    }
}
