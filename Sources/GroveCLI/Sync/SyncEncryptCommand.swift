import ArgumentParser
import Foundation
import GroveCore
import GroveStore
import GroveSync

/// `grove sync encrypt --passphrase-stdin`: seal the account end to end, in place.
struct SyncEncryptCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encrypt", abstract: "Encrypt your account end to end: the server keeps only sealed values.",
        discussion: """
            Syncs first, makes a random key, wraps it with your passphrase (scrypt) and with a recovery \
            code shown once, then sends every value again sealed; the server keeps no plain copy. Your \
            other devices stop syncing until you run `grove sync unlock` there (the passphrase, once).
              printf '%s' "$PASSPHRASE" | grove sync encrypt --passphrase-stdin
            """)

    @OptionGroup var options: GlobalOptions
    @OptionGroup var secret: PassphraseStdin

    func run() async throws {
        let passphrase = try secret.passphrase()
        let db = try options.open()
        let connection = try SyncConnection(database: db)
        let started = ContinuousClock.now
        let done = try await SyncErrors.translate(server: connection.device.serverURL) {
            try await connection.encrypt(passphrase: passphrase)
        }
        let (key, recovery, summary) = (done.key, done.recovery, done.sync)
        let seconds = (ContinuousClock.now - started).seconds
        if options.json {
            try Output.json(["keyId": key.keyId, "recoveryCode": recovery.description, "sent": "\(summary.pushed)"])
            return
        }
        print(
            "Your account is encrypted end to end with key \(key.keyId): \(summary.pushed) values sent again, sealed (\(Self.format(seconds)))."
        )
        recovery.print()
        print("On your other devices run `grove sync unlock --passphrase-stdin` once.")
    }

    static func format(_ seconds: Double) -> String { String(format: "%.1f s", seconds) }
}

extension Duration {
    /// The duration in seconds, as a floating-point number.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
