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
    @Flag(name: .long, help: "Read the passphrase from standard input.") var passphraseStdin = false

    func run() async throws {
        guard passphraseStdin else { throw CLIError.usage("--passphrase-stdin is required: give the passphrase on standard input") }
        let passphrase = try SyncErrors.secretFromInput("--passphrase-stdin", what: "passphrase")
        let db = try options.open()
        let connection = try SyncConnection(database: db)
        let held = connection.key
        let started = ContinuousClock.now
        let (key, recovery, summary) = try await SyncErrors.translate(server: connection.device.serverURL) {
            () async throws -> (DataKey, RecoveryCode, SyncSummary) in
            let http = try connection.transport()
            if let envelope = try await http.keys() {
                throw CLIError.usage(
                    held?.keyId == envelope.keyId
                        ? "This account is encrypted already, with the key this device holds (\(envelope.keyId))"
                        : "This account was encrypted already (key \(envelope.keyId)): run `grove sync unlock` here")
            }
            let key: DataKey, envelope: KeyEnvelope, recovery: RecoveryCode
            if let held {
                // A server restored from before the encryption: the same key, wrapped again.
                key = held
                (envelope, recovery) = try AccountKeys.envelope(
                    for: held, passphrase: passphrase, device: connection.device.deviceName, now: db.environment.now())
            } else {
                // Everything the others sent first: what goes out sealed is the whole account.
                var plain = try connection.engine()
                _ = try await plain.sync()
                (key, envelope, recovery) = try AccountKeys.create(
                    passphrase: passphrase, device: connection.device.deviceName, now: db.environment.now())
            }
            try await http.setKeys(KeyEnvelopeChange(envelope: envelope, expectedKeyId: nil))
            try DeviceKey.write(key, forStore: connection.storePath)
            // Ids that would tell periods and start times are keyed first, then everything goes out sealed.
            try db.sync.adoptIDKey(key.idKeyBytes)
            try db.sync.resendEverything()
            var sealed = try connection.engine()
            return (key, recovery, try await sealed.sync())
        }
        let seconds = (ContinuousClock.now - started).seconds
        if options.json {
            try Output.json(["keyId": key.keyId, "recoveryCode": recovery.description, "sent": "\(summary.pushed)"])
            return
        }
        print(
            "Your account is encrypted end to end with key \(key.keyId): \(summary.pushed) values sent again, sealed (\(Self.format(seconds)))."
        )
        print("Recovery code — write it down now; it is shown only this once, and opens your data if you forget the passphrase:")
        print("  " + recovery.words.prefix(9).joined(separator: " "))
        print("  " + recovery.words.dropFirst(9).joined(separator: " "))
        print("On your other devices run `grove sync unlock --passphrase-stdin` once.")
    }

    static func format(_ seconds: Double) -> String { String(format: "%.1f s", seconds) }
}

extension Duration {
    /// The duration in seconds, as a floating-point number.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
