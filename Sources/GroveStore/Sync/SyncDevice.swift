import Foundation
import GroveCore

/// This store's sync settings, once logged in.
public struct SyncDevice: Sendable, Equatable, Codable {
    public var serverURL: String
    public var user: String
    public var deviceId: UUID
    public var deviceName: String
    /// Where the token lives: a 0600 file beside the store, never in the database (files get copied).
    public var tokenFile: String
    public var cursor: Int64
    public var lastMutationId: Int64
    public var ackedMutationId: Int64
    public var lastSuccess: Date?
    public var lastError: String?
    /// Linked to a new account without a passphrase: nothing is sent until the account is encrypted
    /// (`grove sync encrypt`) or turns out to sync in plain already (another device sent plain values).
    public var awaitingKey = false
    /// When the server kept the latest key envelope this device saw, while the server now holds an
    /// older one (`SyncRoom.noteServerKeys`): restored from a backup, the server lets the passphrase and
    /// recovery code replaced since open the account again. Nil when the server is not behind.
    public var keysBehind: Date?
    /// The account's key id as the server last named it (nil: plain, or not heard yet). Another than
    /// the one this device holds: the key was replaced on another device, and this one must be
    /// unlocked once (`SyncStatus.keyReplaced`).
    public var serverKeyId: String?

    public var node: String { HLC.node(for: deviceId) }

    public init(
        serverURL: String, user: String, deviceId: UUID, deviceName: String, tokenFile: String, cursor: Int64 = 0,
        lastMutationId: Int64 = 0, ackedMutationId: Int64 = 0, lastSuccess: Date? = nil, lastError: String? = nil,
        awaitingKey: Bool = false, keysBehind: Date? = nil, serverKeyId: String? = nil
    ) {
        self.serverKeyId = serverKeyId
        self.awaitingKey = awaitingKey
        self.keysBehind = keysBehind
        self.serverURL = serverURL
        self.user = user
        self.deviceId = deviceId
        self.deviceName = deviceName
        self.tokenFile = tokenFile
        self.cursor = cursor
        self.lastMutationId = lastMutationId
        self.ackedMutationId = ackedMutationId
        self.lastSuccess = lastSuccess
        self.lastError = lastError
    }
}

/// What `grove sync status` shows.
public struct SyncStatus: Sendable, Codable, Equatable {
    public var device: SyncDevice
    /// Changed entities not yet acknowledged by the server.
    public var pendingMutations: Int
    /// Pulled changes waiting for a parent (a to-do whose timer has not arrived).
    public var parkedChanges: Int
    /// Changes either side refused and that were set aside (`SyncRoom.refusals()` says which and why).
    public var refusedChanges: Int = 0
    /// The newest of them (at most 20), with what each broke.
    public var refusals: [SyncRefusal] = []
    public var clock: String
    /// The id of the account's key when this device holds it (an encrypted account, unlocked here);
    /// the key itself lives in a file beside the store.
    public var keyId: String?
}

/// Why sync state could not be changed.
public enum SyncStoreError: Error, Equatable, CustomStringConvertible {
    /// `grove sync …` needs `grove sync login` first.
    case notLoggedIn
    /// The store is already linked to a server.
    case alreadyLoggedIn(server: String)
    /// A restore point is rebuilt into a new store of its own, never into one that syncs.
    case restoreIntoLinkedStore

    public var description: String {
        switch self {
        case .notLoggedIn: "This store is not linked to a sync server: run `grove sync login URL --user NAME --password-stdin`"
        case .alreadyLoggedIn(let server): "This store already syncs with \(server): run `grove sync logout` first"
        case .restoreIntoLinkedStore: "A restore point is rebuilt into a new store (--into PATH), never into one that syncs"
        }
    }
}
