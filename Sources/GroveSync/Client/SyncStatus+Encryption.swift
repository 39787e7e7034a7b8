import GroveStore

extension SyncStatus {
    /// Where this device stands with the account's encryption, in the order every face asks: one
    /// answer for `grove sync status`, `GET /api/v1/sync` and Settings.
    public enum Encryption: String, Sendable {
        /// The server holds a key the account replaced (restored from a backup older than the new
        /// key): nothing is sent until a new key replaces it again.
        case serverBehind = "server-behind"
        /// This device holds a key the account replaced on another device: nothing is sent until it
        /// is unlocked again.
        case replaced
        /// This device holds the account's key.
        case endToEnd = "end-to-end"
        /// Encrypted on another device, and this one holds no key yet.
        case locked
        /// A new account: nothing is sent until it is encrypted.
        case awaitingKey = "awaiting-key"
        /// Values travel in plain.
        case plain
    }

    public var encryption: Encryption {
        if serverKeyRetired { return .serverBehind }
        if keyReplaced { return .replaced }
        if keyId != nil { return .endToEnd }
        if isLocked { return .locked }
        return device.awaitingKey ? .awaitingKey : .plain
    }

    /// The account was encrypted on another device and this one holds no key: its last sync stopped
    /// there (`AccountKeyError.locked`), and nothing goes out until it is unlocked. Not "plain": what
    /// the server keeps is sealed.
    public var isLocked: Bool { keyId == nil && device.lastError == AccountKeyError.locked.description }

    /// This device holds a key, but the account's is another now: replaced on another device (after a
    /// lost one, `grove sync new-key`). Nothing goes out until it is unlocked with the passphrase, once.
    public var keyReplaced: Bool { keyId != nil && device.serverKeyId.map { $0 != keyId } == true && !serverKeyRetired }

    /// The sync server holds a key this account replaced (restored from a backup older than the new
    /// key): this device's last sync stopped there, and a new key replaces it again — not an unlock.
    public var serverKeyRetired: Bool {
        keyId != nil && device.serverKeyId.map { device.lastError == AccountKeyError.retiredKeyOnServer(named: $0).description } == true
    }
}
