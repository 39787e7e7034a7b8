import ArgumentParser
import Foundation
import GroveCore
import GroveStore
import GroveSync

/// `grove sync recovery-code --passphrase-stdin`: a new recovery code for the encrypted account.
struct SyncRecoveryCodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recovery-code", abstract: "Make a new recovery code for your encrypted account (the old one stops working).",
        discussion: """
            For a recovery code lost, or seen by someone else. The passphrase proves the change and stays \
            as it is; nothing is sent again, and your other devices keep syncing. The new code is shown \
            once.
              printf '%s' "$PASSPHRASE" | grove sync recovery-code --passphrase-stdin
            """)

    @OptionGroup var options: GlobalOptions
    @OptionGroup var secret: PassphraseStdin

    func run() async throws {
        let passphrase = try secret.passphrase()
        let db = try options.open()
        let connection = try SyncConnection(database: db)
        let made = try await SyncErrors.translate(server: connection.device.serverURL) {
            try await connection.newRecoveryCode(passphrase: passphrase)
        }
        if options.json { try Output.json(["keyId": made.key.keyId, "recoveryCode": made.recovery.description]); return }
        print("A new recovery code opens key \(made.key.keyId); the old one opens nothing from now on.")
        made.recovery.print()
    }
}
