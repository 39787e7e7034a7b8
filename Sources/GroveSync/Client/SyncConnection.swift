import AsyncHTTPClient
import Foundation
import GroveCore
import GroveStore

/// Why a store cannot reach its sync server.
public enum SyncConnectionError: Error, Equatable, CustomStringConvertible {
    /// The store is linked, but its token file is missing (a store copied without it, a removed file).
    case missingToken(path: String)
    /// An in-memory store has nowhere to keep a token.
    case noStoreFile

    public var description: String {
        switch self {
        case .missingToken(let path):
            "This store has no device token (\(path)): run `grove sync login URL --user NAME --password-stdin` again"
        case .noStoreFile: "Sync needs a store on disk"
        }
    }
}

/// A linked store's way to its server: its settings, its token file, and the engine that syncs it.
public struct SyncConnection: Sendable {
    public let database: AppDatabase
    public let device: SyncDevice
    public let storePath: String

    public init(database: AppDatabase) throws {
        guard let device = try database.sync.device() else { throw SyncStoreError.notLoggedIn }
        guard let path = database.path else { throw SyncConnectionError.noStoreFile }
        self.database = database
        self.device = device
        storePath = path
    }

    public func transport() throws -> HTTPSyncTransport {
        guard let token = DeviceToken.read(forStore: storePath) else {
            throw SyncConnectionError.missingToken(path: DeviceToken.path(forStore: storePath))
        }
        return HTTPSyncTransport(baseURL: device.serverURL, token: token, client: try Self.client(forStore: storePath))
    }

    /// The HTTP client for the store at `storePath`: trusting its stored private authority, if any.
    static func client(forStore storePath: String) throws -> HTTPClient {
        try HTTPSyncTransport.client(caFile: DeviceCA.stored(forStore: storePath))
    }

    /// The account's data key on this device, when it holds one (an encrypted account, unlocked here).
    public var key: DataKey? { DeviceKey.read(forStore: storePath) }

    /// The transport sync runs over: sealing and opening with the device's key when it holds one.
    public func syncTransport() throws -> any SyncTransport {
        let http = try transport()
        let key = key
        // The store names the key the file holds, for the faces that cannot read the file (the web
        // app): said again when they differ (a store unlocked before it kept the id, a removed file).
        if try database.sync.heldKeyId() != key?.keyId { try database.sync.noteHeldKey(key?.keyId) }
        return key.map { SealingTransport(inner: http, key: $0) } ?? http
    }

    /// The engine; a fork (this store turned out to be a copy) stores the new device's token.
    public func engine() throws -> SyncEngine {
        let storePath = storePath, serverURL = device.serverURL
        let client = try Self.client(forStore: storePath)
        return SyncEngine(database: database, transport: try syncTransport()) { credentials in
            try DeviceToken.write(credentials.token, forStore: storePath)
            let http = HTTPSyncTransport(baseURL: serverURL, token: credentials.token, client: client)
            return DeviceKey.read(forStore: storePath).map { SealingTransport(inner: http, key: $0) } ?? http
        }
    }

    /// Registers this store as a device of `user` on the server at `url` and links it (its rows queued
    /// for the first push). A store linked before to the same account whose token is gone registers
    /// again as a new device and keeps everything it has. `caFile` is a private authority to trust
    /// for this server (kept beside the store once the login succeeds).
    ///
    /// An account that logs in with its passphrase (an encrypted one) takes `passphrase` when given, else
    /// `password` as the passphrase: the secret sent is derived from it, and the device is unlocked too.
    public static func login(
        database: AppDatabase, url: String, user: String, password: String, passphrase: String? = nil, deviceName: String,
        caFile: String? = nil, plain: Bool = false
    ) async throws -> SyncDevice {
        guard let storePath = database.path else { throw SyncConnectionError.noStoreFile }
        let server = try HTTPSyncTransport.validate(url)
        let existing = try database.sync.device()
        if let existing, existing.serverURL != server || existing.user != user {
            throw SyncStoreError.alreadyLoggedIn(server: existing.serverURL)
        }
        let client = try caFile.map { try HTTPSyncTransport.client(caFile: $0) } ?? Self.client(forStore: storePath)
        let anonymous = HTTPSyncTransport(baseURL: server, token: nil, client: client)
        // An account that logs in with its passphrase: the secret sent is derived from it, never it.
        let derivation = try await anonymous.prelogin(user: user)
        let secret = try derivation.map { try AccountKeys.loginSecret(passphrase: passphrase ?? password, $0) } ?? password
        let credentials = try await anonymous.register(DeviceRegistration(user: user, password: secret, deviceName: deviceName))
        if let caFile { try DeviceCA.install(from: caFile, forStore: storePath) }
        try DeviceToken.write(credentials.token, forStore: storePath)
        if existing != nil {
            try database.sync.restart(deviceId: credentials.deviceId, lastMutationId: 0)
        } else {
            try database.sync.begin(
                SyncDevice(
                    serverURL: server, user: user, deviceId: credentials.deviceId, deviceName: deviceName,
                    tokenFile: DeviceToken.path(forStore: storePath)))
        }
        // Encrypted by default: without a passphrase (nor --plain) nothing leaves this device until the
        // account has a key (the engine lets a plain account that has data already go on in plain).
        try database.sync.awaitKey(derivation == nil && passphrase == nil && !plain)
        // The same passphrase opens the account's key: this device is unlocked in the same step.
        if derivation != nil { _ = try await SyncConnection(database: database).unlock(passphrase: passphrase ?? password) }
        guard let device = try database.sync.device() else { throw SyncStoreError.notLoggedIn }
        return device
    }
}
