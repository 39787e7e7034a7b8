import GroveStore

extension SyncStatus {
    /// The account was encrypted on another device and this one holds no key: its last sync stopped
    /// there (`AccountKeyError.locked`), and nothing goes out until it is unlocked. Not "plain": what
    /// the server keeps is sealed.
    public var isLocked: Bool { keyId == nil && device.lastError == AccountKeyError.locked.description }
}
