import ArgumentParser
import Foundation
import GroveCore
import GroveStore
import GroveSync

/// `grove sync new-key --passphrase-stdin`: replaces the encrypted account's data key.
struct SyncNewKeyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new-key", abstract: "Replace your encrypted account's key (after a device is lost); a new recovery code too.",
        discussion: """
            For a device lost or stolen, or its key file seen: what the old key opens ends here — the \
            server refuses anything sealed with it from now on. What it sealed before still opens on \
            your devices; nothing is sent again. Each other device stops before it sends anything and \
            asks for the passphrase once (`grove sync unlock`). The recovery code is new, shown once. \
            Revoke the lost device too (`grove sync revoke NAME`): the key is what it could read, its \
            token what it could fetch.
              printf '%s' "$PASSPHRASE" | grove sync new-key --passphrase-stdin
            """)

    @OptionGroup var options: GlobalOptions
    @OptionGroup var secret: PassphraseStdin

    func run() async throws {
        let passphrase = try secret.passphrase()
        let db = try options.open()
        let connection = try SyncConnection(database: db)
        let made = try await SyncErrors.translate(server: connection.device.serverURL) {
            try await connection.replaceKey(passphrase: passphrase)
        }
        if options.json {
            try Output.json([
                "keyId": made.key.keyId, "replaced": made.key.retired.first?.keyId ?? "", "recoveryCode": made.recovery.description,
            ])
            return
        }
        print(
            "The account's key is now \(made.key.keyId); key \(made.key.retired.first?.keyId ?? "") seals nothing from now on."
                + " Each other device asks for the passphrase once (`grove sync unlock --passphrase-stdin`).")
        made.recovery.print()
    }
}
