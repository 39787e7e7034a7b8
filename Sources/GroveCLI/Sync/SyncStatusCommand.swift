import ArgumentParser
import Foundation
import GroveStore
import GroveSync

/// `grove sync status [--json]`.
struct SyncStatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show the server, this device, the cursor, what waits to be sent and what was set aside.")

    @OptionGroup var options: GlobalOptions

    func run() throws {
        let db = try options.open()
        guard var status = try db.sync.status() else {
            if options.json { print("{\"linked\":false}"); return }
            print("Not linked to a sync server. Link with: grove sync login URL --user NAME --password-stdin")
            return
        }
        status.keyId = db.path.flatMap { DeviceKey.read(forStore: $0) }?.keyId
        if options.json { try Output.json(status); return }
        let device = status.device
        print("Server:    \(device.serverURL) (user \(device.user))")
        print("Device:    \(device.deviceName) \(device.deviceId.uuidString)")
        print("Cursor:    \(device.cursor)")
        print(
            "Pending:   \(status.pendingMutations) change\(status.pendingMutations == 1 ? "" : "s") to send"
                + (status.parkedChanges > 0 ? ", \(status.parkedChanges) received waiting for a parent" : ""))
        print("Last sync: \(device.lastSuccess.map { GroveExport.formatInstant($0) } ?? "never")")
        let keyId = status.keyId ?? "", current = device.serverKeyId ?? ""
        switch status.encryption {
        case .serverBehind:
            print(
                "Encrypted: end to end with key \(keyId), but the sync server holds key \(current), which this account replaced"
                    + " (restored from a backup): nothing is sent until `grove sync new-key --passphrase-stdin`")
        case .replaced:
            print(
                "Encrypted: end to end, but the account's key is \(current) now (replaced on another device): this one holds \(keyId)"
                    + " and sends nothing until `grove sync unlock --passphrase-stdin`")
        case .endToEnd: print("Encrypted: end to end, key \(keyId) (held by this device; the server keeps only sealed values)")
        case .locked:
            print("Encrypted: yes, on another device — this one holds no key and sends nothing: `grove sync unlock --passphrase-stdin`")
        case .awaitingKey:
            print("Encrypted: not yet — a new account; nothing is sent until `grove sync encrypt --passphrase-stdin` (or login --plain)")
        case .plain:
            print(
                "Encrypted: no key on this device (values travel in plain: `grove sync encrypt`; encrypted elsewhere: `grove sync unlock`)")
        }
        if let seen = device.keysBehind { print("Keys:      \(KeysBehind(seen: seen))") }
        if let error = device.lastError { print("Last error: \(TerminalText.neutralized(error))") }
        // What either side refused: set aside with the rule it broke, and blocking nothing after it.
        guard status.refusedChanges > 0 else { return }
        print("Set aside: \(status.refusedChanges) change\(status.refusedChanges == 1 ? "" : "s") refused (newest first):")
        for refusal in status.refusals {
            print("  \(GroveExport.formatInstant(refusal.refusedAt))  \(TerminalText.neutralized(refusal.sentence))")
        }
    }
}
