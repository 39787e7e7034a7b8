import ArgumentParser
import Foundation
import GroveCore
import GroveStore
import GroveSync

/// `grove sync unlock --passphrase-stdin` (or `--recovery-stdin`): take the account's key on this device.
struct SyncUnlockCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unlock", abstract: "Open your encrypted account's key on this device (the passphrase, or the recovery code).",
        discussion: """
              printf '%s' "$PASSPHRASE" | grove sync unlock --passphrase-stdin
            Forgot the passphrase? Give the recovery code on the first line and a new passphrase on the
            second: the key is opened with the code and wrapped again with the new passphrase.
              printf '%s\\n%s\\n' "$WORDS" "$NEW" | grove sync unlock --recovery-stdin
            """)

    @OptionGroup var options: GlobalOptions
    @Flag(name: .long, help: "Read the passphrase from standard input.") var passphraseStdin = false
    @Flag(name: .long, help: "Read the recovery code, then a new passphrase, from standard input.") var recoveryStdin = false

    func run() async throws {
        guard passphraseStdin != recoveryStdin else {
            throw CLIError.usage("Give one of --passphrase-stdin or --recovery-stdin (with the secret on standard input)")
        }
        let first = try SyncErrors.secretFromInput(
            recoveryStdin ? "--recovery-stdin" : "--passphrase-stdin", what: recoveryStdin ? "recovery code" : "passphrase")
        let code = try recoveryStdin ? RecoveryCode(words: first) : nil
        let newPassphrase = try recoveryStdin ? SyncErrors.secretFromInput("--recovery-stdin", what: "new passphrase (second line)") : nil
        if let newPassphrase { try AccountKeys.checkStrength(newPassphrase) }
        let db = try options.open()
        let connection = try SyncConnection(database: db)
        let key = try await SyncErrors.translate(server: connection.device.serverURL) {
            try await connection.unlock(passphrase: code == nil ? first : nil, recovery: code, newPassphrase: newPassphrase)
        }
        if options.json { try Output.json(["keyId": key.keyId]); return }
        print(
            "Unlocked: this device holds key \(key.keyId)"
                + (newPassphrase == nil ? "" : ", and the new passphrase wraps it on every device")
                + ". Run `grove sync`.")
    }
}
