import GroveStore

extension SyncStatus {
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
