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
            The current passphrase on the first line, the new one on the second. The account's key stays; \
            only its wrapping changes, so nothing is re-sealed and your other devices keep syncing with \
            the key they hold. The new passphrase is what `grove sync login` and `unlock` take from now on.
              printf '%s\\n%s\\n' "$CURRENT" "$NEW" | grove sync passphrase --passphrase-stdin
            """)

    @OptionGroup var options: GlobalOptions
    @Flag(name: .long, help: "Read the current passphrase, then the new one, from standard input.") var passphraseStdin = false

    func run() async throws {
        guard passphraseStdin else {
            throw CLIError.usage("--passphrase-stdin is required: give the current passphrase, then the new one, on standard input")
        }
        let current = try SyncErrors.secretFromInput("--passphrase-stdin", what: "current passphrase (first line)")
        let passphrase = try SyncErrors.secretFromInput("--passphrase-stdin", what: "new passphrase (second line)")
        let db = try options.open()
        let connection = try SyncConnection(database: db)
        let key = try await SyncErrors.translate(server: connection.device.serverURL) {
            try await connection.changePassphrase(from: current, to: passphrase)
        }
        if options.json { try Output.json(["keyId": key.keyId]); return }
        print("The passphrase is changed: key \(key.keyId) is wrapped with the new one. Your other devices keep syncing as they are.")
    }
}
