import Foundation
import GroveCore

/// An account on the sync server.
public struct SyncUser: Sendable, Equatable, Codable {
    public var id: Int64
    public var name: String
    public var passwordHash: String
    public var disabled: Bool
    public var createdAt: Date
}

/// A registered device, as the server holds it (the token only as a prefix and a digest).
public struct StoredDevice: Sendable, Equatable {
    public var id: UUID
    public var userId: Int64
    public var name: String
    public var tokenHash: String
    public var lastMutationId: Int64
    public var lastSeen: Date?
    public var revoked: Bool
}

/// A page of a user's history.
public struct StoredPage: Sendable {
    public var changes: [SyncChange]
    public var hasMore: Bool
    public var head: Int64
    /// Where the next pull starts: the last change returned, or the head when this is the last page
    /// (changes skipped because the device sent them itself are passed over too).
    public var cursor: Int64
    /// What sits at `cursor` in the history ("" at 0).
    public var checksum: String
}

/// Where the sync server keeps accounts, devices and every user's entities (SYNC.md "Storage").
///
/// Two implementations: `SQLiteSyncStore` (the embedded default, one file) and, behind the `Postgres`
/// trait, a PostgreSQL one. Both merge pushes with `PushPlan` inside one transaction per push, bumping
/// a per-user sequence row (never a global serial: a reader could skip a late commit).
public protocol SyncStore: Sendable {
    func createUser(name: String, passwordHash: String, now: Date) async throws -> SyncUser
    func user(named name: String) async throws -> SyncUser?
    func users() async throws -> [SyncUser]
    func setUser(named name: String, disabled: Bool) async throws -> Bool

    /// Registers a device; `parent` is the device it was forked from (nil for a login with the password).
    func registerDevice(id: UUID, userId: Int64, name: String, tokenPrefix: String, tokenHash: String, parent: UUID?, now: Date)
        async throws
    /// Registers again a device a server restored from an older backup has no row for (its token
    /// checked by the caller), marked as taken back; false when its id or prefix is taken already.
    func reclaimDevice(id: UUID, userId: Int64, name: String, tokenPrefix: String, tokenHash: String, now: Date) async throws -> Bool
    /// The server's secret for device tokens: `candidate` is kept if there is none yet, and what is
    /// kept is returned (instances starting at once agree on the first one written).
    func serverSecret(candidate: Data) async throws -> Data
    /// The device whose token starts with `prefix`, with its user.
    func device(tokenPrefix: String) async throws -> (StoredDevice, SyncUser)?
    func devices(userId: Int64) async throws -> [DeviceInfo]
    /// Revokes a device of `userId` and every device forked from it, at any depth; returns their
    /// ids (empty when the user has no such device).
    func revokeDevice(_ id: UUID, userId: Int64) async throws -> [UUID]
    /// Notes that a device was seen (callers throttle this).
    func touchDevice(_ id: UUID, now: Date) async throws

    /// The account's key id and its envelope (opaque JSON) when it is encrypted.
    func keyEnvelope(userId: Int64) async throws -> (keyId: String, envelope: String)?
    /// Keeps `envelope` if the account's key is `expected` now (nil: not encrypted yet — this encrypts
    /// it, and drops the plain states kept as history); `keyId` is `expected`'s re-wrap or the key that
    /// replaces it (the service checks a replacement's proof). Returns the account's key id after: `keyId` when kept, else the one that stood in the way.
    /// `passwordHash`, when given, replaces the account's password hash in the same transaction.
    func setKeyEnvelope(userId: Int64, keyId: String, envelope: String, expected: String?, passwordHash: String?) async throws -> String?

    /// Applies a push: loads the touched rows, plans with `PushPlan`, writes, in one transaction.
    func push(userId: Int64, deviceId: UUID, request: PushRequest, now: Date) async throws -> PushPlan
    /// Changes after `cursor`, oldest first, except those that are exactly what this device pushed;
    /// notes the device's cursor as acknowledged.
    func pull(userId: Int64, deviceId: UUID, cursor: Int64, limit: Int, includeOwn: Bool) async throws -> StoredPage
    /// The user's head and the oldest cursor still served (older ones get 410).
    func head(userId: Int64) async throws -> (head: Int64, horizon: Int64)
    /// What sat at position `seq` of the user's history ("" when nothing did).
    func digest(userId: Int64, seq: Int64) async throws -> String
    /// Every entity of the user as stored (canonical exports in tests and `grove sync-server` checks).
    func entities(userId: Int64) async throws -> [EntityKey: SyncState]
    /// Drops tombstones every recently seen device has pulled past and older than `olderThan`; moves the horizon.
    func pruneTombstones(userId: Int64, olderThan: Date, devicesSeenSince: Date) async throws -> Int
    /// The instant restore points reach back to at most: when this database began keeping replaced states.
    func historySince() async throws -> Date
    /// The user's rows as they stood at `asOf` (deleted ones left out), by entity and id after `after`,
    /// at most `limit`: each is the state written last at or before `asOf` — the current row, or one a
    /// later push replaced (kept in the history). Values stay as opaque as the server holds them.
    func snapshot(userId: Int64, asOf: Date, after: EntityKey?, limit: Int) async throws -> [SyncChange]
    /// Drops the replaced states that were replaced before `before`; returns how many.
    func pruneHistory(replacedBefore before: Date) async throws -> Int
    /// Throws unless the database answers (`/readyz`).
    func checkReady() async throws

    /// True when `push` and `checkedPull` refuse a revoked device or a disabled account in the very
    /// statement that does the work: then a push or a pull may come from a token the instance has seen
    /// before without looking it up again (`SyncService`'s token cache), and a revocation made on any
    /// instance still refuses the next request at once.
    var checksAccessInline: Bool { get }

    /// A pull whose cursor is checked against the same snapshot it reads: past the head or a
    /// `checksum` that is not what sits at the cursor → `historyDiverged`; below the horizon →
    /// `cursorExpired`. The cursor is acknowledged only when it passed.
    func checkedPull(userId: Int64, deviceId: UUID, cursor: Int64, checksum: String?, limit: Int, includeOwn: Bool) async throws
        -> StoredPage
}

extension SyncStore {
    public var checksAccessInline: Bool { false }

    /// The checks, then the page, in separate reads (an embedded store answers each in microseconds).
    public func checkedPull(userId: Int64, deviceId: UUID, cursor: Int64, checksum: String?, limit: Int, includeOwn: Bool) async throws
        -> StoredPage
    {
        let (head, horizon) = try await head(userId: userId)
        if cursor > head { throw SyncServerError.historyDiverged(head: head) }
        if cursor > 0, cursor < horizon { throw SyncServerError.cursorExpired(horizon: horizon) }
        if cursor > 0, let checksum, !checksum.isEmpty, try await digest(userId: userId, seq: cursor) != checksum {
            throw SyncServerError.historyDiverged(head: head)
        }
        return try await pull(userId: userId, deviceId: deviceId, cursor: cursor, limit: limit, includeOwn: includeOwn)
    }
}

/// Why a store is not ready to serve (`/readyz` says so).
public enum SyncReadinessError: Error, Equatable {
    /// The database's disk has (almost) no room left: pushes would fail.
    case diskFull
}
