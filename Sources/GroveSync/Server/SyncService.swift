import Crypto
import Foundation
import GroveCore
import GroveHTTP
import HummingbirdBcrypt

/// The sync server's operations, independent of HTTP: the routes call these, and so does the
/// convergence simulation (an in-process server without sockets).
public struct SyncService: Sendable {
    /// A device the request's token belongs to.
    public struct Caller: Sendable {
        public var device: StoredDevice
        public var user: SyncUser
    }

    public let store: any SyncStore
    public let pokes: PokeHub
    public let metrics: SyncMetrics
    let now: @Sendable () -> Date
    let newID: @Sendable () -> UUID
    /// bcrypt's cost factor for new passwords (4 in tests; 10 by default, ~60 ms here).
    let bcryptCost: UInt8
    /// A hash no password matches, checked when the user is unknown (same cost as a real check).
    static let decoyHash = Bcrypt.hash("grove-sync-decoy-\(UUID().uuidString)", cost: 10)
    /// "Last seen" is written at most once a minute per device.
    static let touchInterval: TimeInterval = 60
    /// Tokens this instance has authenticated (see `authenticateForSync`).
    let tokens = TokenCache()
    /// Wrong passwords per account and per address.
    public let throttle: LoginThrottle
    /// Where bcrypt runs: off Swift's cooperative pool, in lanes that put a flood of guesses behind
    /// the owner's own logins. One per service (tests run many side by side).
    let passwords: PasswordGate
    /// How long a replaced state is kept, so that the account can be seen as it was (restore points).
    public let historyKeep: TimeInterval

    public init(
        store: any SyncStore, pokes: PokeHub = PokeHub(), metrics: SyncMetrics = SyncMetrics(),
        now: @escaping @Sendable () -> Date = { Date() },
        newID: @escaping @Sendable () -> UUID = { UUID.random() }, bcryptCost: UInt8 = 10, throttle: LoginThrottle = LoginThrottle(),
        passwords: PasswordGate = PasswordGate(), historyKeep: TimeInterval = SyncService.defaultHistoryKeep
    ) {
        self.historyKeep = historyKeep
        self.store = store
        self.throttle = throttle
        self.passwords = passwords
        self.pokes = pokes
        self.metrics = metrics
        self.now = now
        self.newID = newID
        self.bcryptCost = bcryptCost
    }

    // MARK: Accounts

    /// Creates an account (`grove sync-server user add`).
    @discardableResult
    public func addUser(name: String, password: String) async throws -> SyncUser {
        try Self.checkName(name)
        let name = SyncUserName.canonical(name)
        try Self.checkName(name)
        guard password.utf8.count >= 8, password.utf8.count <= 72 else {
            throw SyncServerError.invalid(field: "password", message: "A password has 8 to 72 bytes (bcrypt's limit)")
        }
        return try await store.createUser(name: name, passwordHash: Bcrypt.hash(password, cost: bcryptCost), now: now())
    }

    /// The account `name` names: by the exact name first (an account older than canonical names,
    /// whose form another account took, keeps it), then by its canonical form.
    public func user(named name: String) async throws -> SyncUser? {
        if let user = try await store.user(named: name) { return user }
        let canonical = SyncUserName.canonical(name)
        return canonical == name ? nil : try await store.user(named: canonical)
    }

    static func checkName(_ name: String) throws {
        guard (1...64).contains(name.utf8.count),
            name.unicodeScalars.allSatisfy({ CharacterSet.alphanumerics.contains($0) || "._-@".unicodeScalars.contains($0) })
        else { throw SyncServerError.invalid(field: "user", message: "A user name has 1 to 64 letters, digits, '.', '_', '-' or '@'") }
    }

    /// Registers a device with the account's password; the token is returned once. `address` is the
    /// client's, for throttling wrong passwords (`LoginThrottle`).
    public func register(_ registration: DeviceRegistration, address: String? = nil) async throws -> DeviceCredentials {
        let name = registration.deviceName.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...100).contains(name.count) else {
            throw SyncServerError.invalid(field: "deviceName", message: "A device name has 1 to 100 characters")
        }
        let account = SyncUserName.canonical(String(registration.user.prefix(64)))
        try throttle.check(user: account, address: address, now: now())
        let user = registration.user.utf8.count <= 64 ? try await user(named: registration.user) : nil
        // An unknown user costs the same bcrypt as a known one: the answer's time tells nothing.
        let password = String(registration.password.utf8.prefix(72)) ?? "", hash = user?.passwordHash ?? Self.decoyHash
        let usable = user.map { !$0.disabled } == true && registration.password.utf8.count <= 72
        let (throttle, now) = (self.throttle, self.now)
        let lane = throttle.lane(user: account, address: address, now: now())
        let check: @Sendable () -> Result<Bool, SyncServerError> = {
            // Checked again here, one attempt per address at a time: the failures of this address's
            // and this account's earlier attempts are counted by now.
            do throws(SyncServerError) { try throttle.check(user: account, address: address, now: now()) } catch { return .failure(error) }
            let matches = Bcrypt.verify(password, hash: hash) && usable
            if matches {
                throttle.succeeded(user: account, address: address, now: now())
            } else {
                throttle.failed(user: account, address: address, now: now())
            }
            return .success(matches)
        }
        let matches =
            if user == nil {
                // No such account: nothing to hash, the answer only waits as long as a real one.
                try await passwords.decoy(
                    lane: lane, address: address,
                    record: {
                        do throws(SyncServerError) { try throttle.check(user: account, address: address, now: now()) } catch {
                            return .failure(error)
                        }
                        throttle.failed(user: account, address: address, now: now())
                        return .success(false)
                    }, check: check)
            } else {
                try await passwords.run(lane: lane, address: address, check)
            }
        guard let user, matches else { throw SyncServerError.badCredentials }
        return try await newDevice(user: user, name: name)
    }

    /// Live forks a device may have: a copied store now and then, not a token mint.
    public static let maxForks = 3
    /// Live forked devices an account may have, all parents together.
    public static let maxForksPerAccount = 12
    /// How long a line of copies may be (a copy of a copy of a copy): each copy could otherwise mint
    /// three more tokens without a password.
    public static let maxForkDepth = 3

    /// A new device for the caller's account (a store found to be a copy of another device's), with no
    /// password: it is bounded (`maxForks` live forks per device, `maxForksPerAccount` per account, a
    /// line of at most `maxForkDepth`) and belongs to its parent, whose revocation ends it too.
    public func fork(_ caller: Caller, name: String? = nil) async throws -> DeviceCredentials {
        let devices = try await store.devices(userId: caller.user.id)
        let live = devices.filter { $0.parentId == caller.device.id && !$0.revoked }.count
        guard live < Self.maxForks else { throw SyncServerError.tooManyForks(limit: Self.maxForks) }
        let forked = devices.filter { $0.parentId != nil && !$0.revoked }.count
        guard forked < Self.maxForksPerAccount else { throw SyncServerError.tooManyForks(limit: Self.maxForksPerAccount) }
        let parents = Dictionary(devices.map { ($0.deviceId, $0.parentId) }, uniquingKeysWith: { first, _ in first })
        var depth = 1
        var parent = parents[caller.device.id] ?? nil
        while let next = parent, depth <= Self.maxForkDepth {
            depth += 1
            parent = parents[next] ?? nil
        }
        guard depth <= Self.maxForkDepth else { throw SyncServerError.tooManyForks(limit: Self.maxForkDepth) }
        return try await newDevice(
            user: caller.user, name: String((name ?? caller.device.name + " (copy)").prefix(100)), parent: caller.device.id)
    }

    /// The caller a bearer token belongs to, looked up in the store; throws `unauthorized` for anything else.
    public func authenticate(token: String) async throws -> Caller {
        guard let prefix = Self.prefix(of: token) else { throw SyncServerError.unauthorized }
        // A well-formed token nobody here issued: a server restored from an older backup (its prefix is
        // 48 random bits: saying so tells a guesser nothing).
        guard let (device, user) = try await store.device(tokenPrefix: prefix) else { throw SyncServerError.unknownDevice }
        guard Self.constantTimeEqual(device.tokenHash, Self.digest(token)), !device.revoked else {
            throw SyncServerError.unauthorized
        }
        // The token is right: the device may know its account is off (logging in again cannot help).
        guard !user.disabled else { throw SyncServerError.accountDisabled }
        let time = now()
        var seen = device.lastSeen
        if seen.map({ time.timeIntervalSince($0) >= Self.touchInterval }) ?? true {
            try await store.touchDevice(device.id, now: time)
            seen = time
        }
        if store.checksAccessInline { tokens.remember(prefix, Caller(device: device, user: user), seen: seen ?? time) }
        return Caller(device: device, user: user)
    }

    /// The caller of a push or a pull. With a store that checks access in the push's and the pull's
    /// own statement, a token this instance has seen is not looked up again — one round trip of
    /// three saved on every push — and its digest is still compared here; what can change (revoked,
    /// disabled) is the statement's to refuse. Other stores, and every other route, `authenticate`.
    public func authenticateForSync(token: String) async throws -> Caller {
        guard store.checksAccessInline, let prefix = Self.prefix(of: token), let (caller, seen) = tokens.caller(prefix),
            Self.constantTimeEqual(caller.device.tokenHash, Self.digest(token))
        else { return try await authenticate(token: token) }
        let time = now()
        if time.timeIntervalSince(seen) >= Self.touchInterval {
            try await store.touchDevice(caller.device.id, now: time)
            tokens.remember(prefix, caller, seen: time)
        }
        return caller
    }

    /// `body`, forgetting the caller's token when the store refused it (revoked, disabled meanwhile).
    private func forgettingRefused<T>(_ caller: Caller, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch SyncServerError.unauthorized {
            tokens.forget(deviceId: caller.device.id)
            // Revoked, or the account disabled meanwhile: the device is told which.
            if try await store.user(named: caller.user.name)?.disabled == true { throw SyncServerError.accountDisabled }
            throw SyncServerError.unauthorized
        }
    }

    /// The lookup part of a well-formed token (`gsy_<12>_<64>`).
    static func prefix(of token: String) -> String? {
        let parts = token.split(separator: "_", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "gsy", parts[1].utf8.count == 12, parts[2].utf8.count == 64 else { return nil }
        return String(parts[1])
    }

    public func devices(_ caller: Caller) async throws -> [DeviceInfo] { try await store.devices(userId: caller.user.id) }

    public func revoke(_ caller: Caller, device: UUID) async throws {
        let revoked = try await store.revokeDevice(device, userId: caller.user.id)
        guard !revoked.isEmpty else { throw SyncServerError.notFound("device \(device.uuidString)") }
        for id in revoked { tokens.forget(deviceId: id) }
        await pokes.disconnect(devices: Set(revoked))
    }

    public func status(_ caller: Caller) async throws -> ServerStatus {
        let head = try await store.head(userId: caller.user.id).head
        let devices = try await store.devices(userId: caller.user.id)
        let last = devices.first { $0.deviceId == caller.device.id }?.lastMutationId ?? 0
        let keys = try await store.keyEnvelope(userId: caller.user.id)
        return ServerStatus(
            head: head, lastMutationId: last, epoch: "", serverTime: now(), keyId: keys?.keyId,
            keysKeptAt: keys.flatMap { Self.keptAt($0.envelope) })
    }

    // MARK: Push and pull

    public func push(_ caller: Caller, _ request: PushRequest) async throws -> PushResponse {
        guard request.deviceId == caller.device.id else { throw SyncServerError.wrongDevice }
        guard request.mutations.count <= SyncWire.maxMutationsPerPush else { throw SyncServerError.tooLarge(limit: SyncWire.maxPushBytes) }
        let time = now()
        let plan: PushPlan
        do {
            plan = try await forgettingRefused(caller) {
                try await metrics.measure(metrics.pushes, metrics.pushSeconds) {
                    try await store.push(userId: caller.user.id, deviceId: caller.device.id, request: request, now: time)
                }
            }
        } catch let refusal as PushRefusal { throw SyncServerError.push(refusal) }
        metrics.mutations.increment(by: Int64(request.mutations.count))
        if !plan.writes.isEmpty { await pokes.poke(user: caller.user.id, head: plan.head) }
        return PushResponse(lastMutationId: plan.lastMutationId, cursor: plan.head, serverTime: time)
    }

    /// A page of changes after `cursor`. `checksum` is what the device saw at `cursor`: a different
    /// answer here means the server lost or rewrote that history (a restore).
    public func pull(_ caller: Caller, cursor: Int64, limit: Int, checksum: String?, full: Bool = false) async throws -> PullResponse {
        guard cursor >= 0 else { throw SyncServerError.invalid(field: "cursor", message: "A cursor is 0 or more") }
        guard (1...SyncWire.maxPullLimit).contains(limit) else {
            throw SyncServerError.invalid(field: "limit", message: "limit is 1 to \(SyncWire.maxPullLimit)")
        }
        let page = try await forgettingRefused(caller) {
            try await metrics.measure(metrics.pulls, metrics.pullSeconds) {
                try await store.checkedPull(
                    userId: caller.user.id, deviceId: caller.device.id, cursor: cursor, checksum: checksum,
                    limit: limit, includeOwn: full)
            }
        }
        return PullResponse(changes: page.changes, cursor: page.cursor, hasMore: page.hasMore, checksum: page.checksum, serverTime: now())
    }

    /// Drops, for every account, the deletions every device seen in the last `keep` has pulled past
    /// and that are older than `keep` (SYNC.md "Tombstones": 90 days). Returns how many went.
    @discardableResult
    public func pruneTombstones(keep: TimeInterval = 90 * 86_400) async throws -> Int {
        let cutoff = now().addingTimeInterval(-keep)
        var removed = 0
        for user in try await store.users() {
            removed += try await store.pruneTombstones(userId: user.id, olderThan: cutoff, devicesSeenSince: cutoff)
        }
        return removed
    }

    // MARK: Helpers

    static func digest(_ token: String) -> String { Hex.string(SHA256.hash(data: Data(token.utf8))) }

    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
