import Foundation
import GroveCore
import GroveStore

/// What one `grove sync` did.
public struct SyncSummary: Sendable, Codable, Equatable {
    /// Mutations the server took (new to it).
    public var pushed = 0
    /// Changes pulled from the server.
    public var pulled = 0
    /// Rows created, changed or deleted here by pulled changes.
    public var applied = 0
    /// Mutations still waiting (0 after a clean sync).
    public var pending = 0
    /// Pulled changes waiting for a parent.
    public var parked = 0
    /// The position in the account's history this device has reached.
    public var cursor: Int64 = 0
    /// Recoveries taken on the way ("cloned store", "server restored", "clock re-stamped", …).
    public var notes: [String] = []

    public init() {}
}

/// Push and pull until caught up (SYNC.md): the one sync loop of the CLI, `grove serve --sync` and the
/// simulation. It recovers by itself from every fault it can name, and otherwise stops with the
/// server's problem — never by dropping local changes.
public struct SyncEngine: Sendable {
    public let database: AppDatabase
    public var transport: any SyncTransport
    /// Stores new credentials (after a fork) and returns a transport that uses them.
    let adopt: @Sendable (DeviceCredentials) async throws -> any SyncTransport

    public init(
        database: AppDatabase, transport: any SyncTransport,
        adopt: @escaping @Sendable (DeviceCredentials) async throws -> any SyncTransport
    ) {
        self.database = database
        self.transport = transport
        self.adopt = adopt
    }

    /// When this engine last compared its store with the server's view.
    private var reconciledAt: Date?
    /// How often a long-running engine compares its store with the server's view (`reconcile`).
    public static let reconcileInterval: TimeInterval = 600

    /// Bounds on recoveries within one run, so that a server that keeps refusing cannot loop forever.
    static let maxRecoveries = 8

    public mutating func sync(pullLimit: Int = SyncWire.defaultPullLimit) async throws -> SyncSummary {
        var summary = SyncSummary()
        do {
            // At the start (each `grove sync`) and every ten minutes of a long-running `serve --sync`: in
            // between, a copied store shows in the push's replay digest and a restored server in the
            // pull's checksum, and only a copy that pushed less than the original goes unseen for a while.
            do {
                try await exchange(&summary, pullLimit: pullLimit)
            } catch let problem as SyncProblem where problem.slug == "unknown-device" {
                // A server restored from a backup older than this device: it takes the device back on the
                // strength of its token (or says again that it cannot, and the device logs in again).
                try await reclaim(&summary)
                try await exchange(&summary, pullLimit: pullLimit)
            }
            summary.pending = try database.sync.pendingCount()
            let status = try database.sync.status()
            summary.cursor = status?.device.cursor ?? 0
            summary.parked = status?.parkedChanges ?? 0
            try database.sync.recordAttempt(error: nil)
            return summary
        } catch {
            // A box or a server naming another key than the one held: the key was replaced elsewhere,
            // and every face asks for the passphrase once (`SyncStatus.keyReplaced`) — or the server
            // went back to a replaced key, and every face offers a new key (`serverKeyRetired`).
            switch error {
            case AccountKeyError.otherKey(_, let named), AccountKeyError.retiredKeyOnServer(let named):
                try? database.sync.noteServerKeyId(named)
            default: break
            }
            try? database.sync.recordAttempt(error: "\(error)")
            throw error
        }
    }

    /// Reconciles when due, then pulls and pushes until nothing waits (or three rounds went by).
    private mutating func exchange(_ summary: inout SyncSummary, pullLimit: Int) async throws {
        let now = database.environment.now()
        if reconciledAt.map({ now.timeIntervalSince($0) > Self.reconcileInterval || now < $0 }) ?? true {
            try await reconcile(&summary)
            reconciledAt = now
        }
        var recoveries = 0
        var round = 0
        // Pull before pushing (SYNC.md "Past the horizon, pull first"): a new, reset or restored store
        // learns what exists before it says anything, and a device whose cursor is past the tombstone
        // horizon re-bootstraps before it can push an edit of a row deleted meanwhile.
        try await pull(&summary, limit: pullLimit, recoveries: &recoveries)
        repeat {
            round += 1
            try await push(&summary, recoveries: &recoveries)
            try await pull(&summary, limit: pullLimit, recoveries: &recoveries)
        } while try database.sync.pendingCount() > 0 && round < 3
    }

    /// Asks the server to take this device back (it has no record of it), then reconciles at once: the
    /// server lost what the device sent after the backup, and is sent it again.
    private mutating func reclaim(_ summary: inout SyncSummary) async throws {
        guard let device = try database.sync.device() else { throw SyncStoreError.notLoggedIn }
        try await transport.reclaim(DeviceReclaim(deviceId: device.deviceId, user: device.user, deviceName: device.deviceName))
        reconciledAt = nil
        summary.notes.append("the server was restored from a backup older than this device: it took the device back")
    }

    /// Compares this store's view with the server's before anything moves: a copy of another
    /// device's store (the server holds more of "our" mutations than we ever made) becomes a device of
    /// its own; a server that lost acknowledged data (restored from a backup) gets everything again.
    mutating func reconcile(_ summary: inout SyncSummary) async throws {
        guard let device = try database.sync.device() else { throw SyncStoreError.notLoggedIn }
        let status = try await transport.status()
        // Noted before the key is checked: a device whose key was replaced elsewhere shows it.
        let behind = try database.sync.noteServerKeys(keyId: status.keyId, keptAt: status.keysKeptAt)
        try checkKey(serverKey: status.keyId)
        if let seen = behind {
            // The data is safe (every box still opens); what came back is a way in that was closed.
            summary.notes.append(KeysBehind(seen: seen).description)
        }
        if device.awaitingKey, status.keyId == nil {
            // Encrypted by default: a new account waits for its key. One whose other devices sync
            // in plain already is that person's choice, and this device joins it.
            guard status.head > 0 else { throw AccountKeyError.newAccount }
            try database.sync.awaitKey(false)
            summary.notes.append("the account syncs unencrypted, as its other devices do (`grove sync encrypt` encrypts it)")
        }
        if status.lastMutationId > device.lastMutationId {
            let credentials = try await transport.fork()
            transport = try await adopt(credentials)
            try database.sync.restart(deviceId: credentials.deviceId, lastMutationId: 0)
            summary.notes.append("this store is a copy of another device's: registered as a new device")
        } else if status.lastMutationId < device.ackedMutationId || device.cursor > status.head {
            try database.sync.restart(deviceId: device.deviceId, lastMutationId: status.lastMutationId)
            summary.notes.append("the server lost changes (restored from a backup?): sending everything again")
        }
    }

    /// Fails closed (SYNC.md "Private sync"): an encrypted account is only synced with its key, a
    /// key only with an encrypted account — before anything is pushed.
    func checkKey(serverKey: String?) throws {
        let sealing = transport as? SealingTransport
        switch (serverKey, sealing?.sealer.key.keyId) {
        case (nil, nil): return
        case (.some, nil): throw AccountKeyError.locked
        case (nil, .some): throw AccountKeyError.serverNotEncrypted
        case (.some(let named), .some(let held)):
            guard named != held else { return }
            // A key this one replaced: the server was restored from before the new key (never gone back to).
            if sealing?.sealer.key.opening(named) != nil { throw AccountKeyError.retiredKeyOnServer(named: named) }
            throw AccountKeyError.otherKey(held: held, named: named)
        }
    }

    private mutating func push(_ summary: inout SyncSummary, recoveries: inout Int) async throws {
        var limit = SyncWire.maxMutationsPerPush
        while true {
            let mutations = try database.sync.mutationsToPush(limit: limit)
            guard !mutations.isEmpty, let device = try database.sync.device() else { return }
            // Split by size as well as by count.
            var batch: [SyncMutation] = []
            var size = 0
            for mutation in mutations {
                if !batch.isEmpty && size + mutation.approximateSize > SyncWire.maxPushBytes / 2 { break }
                batch.append(mutation)
                size += mutation.approximateSize
            }
            do {
                let response = try await transport.push(PushRequest(deviceId: device.deviceId, mutations: batch))
                try database.sync.acknowledge(through: response.lastMutationId, serverTime: response.serverTime)
                summary.pushed += batch.filter { $0.id > device.ackedMutationId }.count
                // A batch that took everything there was leaves nothing to seal: no second look needed.
                if batch.count == mutations.count && mutations.count < limit { return }
            } catch let problem as SyncProblem {
                // Splitting always ends (at one mutation a push), and so does setting aside (one refused
                // mutation less each time); the other recoveries are bounded.
                if problem.slug != "too-large" && problem.mutationId == nil { recoveries += 1 }
                guard recoveries <= Self.maxRecoveries else { throw problem }
                switch problem.slug {
                case "not-sealed":
                    // Encrypted by another device since this one last looked: nothing plain goes out.
                    throw AccountKeyError.locked
                case "wrong-key":
                    // The account's key changed since this device last looked: say which it is now.
                    try checkKey(serverKey: try await transport.status().keyId)
                    throw problem
                case "mutation-gap":
                    // The server holds fewer of our mutations than we were told it did: it lost some.
                    try database.sync.restart(deviceId: device.deviceId, lastMutationId: problem.lastMutationId ?? 0)
                    summary.notes.append("the server lost changes: sending everything again")
                case "device-cloned":
                    let credentials = try await transport.fork()
                    transport = try await adopt(credentials)
                    try database.sync.restart(deviceId: credentials.deviceId, lastMutationId: 0)
                    summary.notes.append("this store is a copy of another device's: registered as a new device")
                case "clock-drift":
                    try database.sync.restampAhead(of: problem.serverTime ?? database.environment.now())
                    summary.notes.append("this machine's clock is ahead of the server's: changes re-stamped")
                case "validation":
                    // A value the server will not take never blocks the changes behind it: it is set
                    // aside with its reason (`grove sync status`), and the push goes on without it.
                    guard let id = problem.mutationId,
                        let refusal = try database.sync.setAside(
                            mutationId: id, field: problem.field ?? "",
                            message: problem.detail.replacingOccurrences(of: "Mutation \(id): ", with: ""))
                    else { throw problem }
                    summary.notes.append(refusal.sentence)
                case "too-large":
                    guard batch.count > 1 else { throw problem }
                    // Smaller pushes for the rest of this run.
                    limit = max(1, batch.count / 2)
                    try database.sync.unseal()
                default:
                    throw problem
                }
            }
        }
    }

    private mutating func pull(_ summary: inout SyncSummary, limit: Int, recoveries: inout Int) async throws {
        // After the server dropped deletions this device never saw, it pulls every row, its own pushes
        // included: a row it does not see again was deleted elsewhere. Otherwise what it pushed itself
        // is not sent back.
        while true {
            guard let device = try database.sync.device() else { throw SyncStoreError.notLoggedIn }
            let full = try database.sync.isPullingEverything()
            do {
                let page = try await transport.pull(
                    cursor: device.cursor, limit: limit, checksum: try database.sync.cursorChecksum(), full: full)
                var setAside: [EntityKey] = []
                if let sealing = transport as? SealingTransport {
                    let refused = sealing.takeRefused()
                    summary.notes += refused.map(\.sentence)
                    setAside = refused.map(\.key)
                } else if page.changes.contains(where: { $0.fields.keys.contains { SealedValue.group(ofField: $0) != nil } }) {
                    // Sealed values and no key: the account was encrypted elsewhere. Nothing is applied.
                    throw AccountKeyError.locked
                }
                let result = try database.sync.receive(page, alsoSeen: setAside)
                summary.pulled += result.received
                summary.applied += result.applied
                summary.notes += result.refused.map(\.sentence)
                if result.reapplied > 0 {
                    summary.notes.append(
                        "the account was restored to an earlier point on another device: \(result.reapplied) change\(result.reapplied == 1 ? "" : "s") made here and not yet sent went on top of it"
                    )
                }
                if !page.hasMore { return }
            } catch let problem as SyncProblem {
                recoveries += 1
                guard recoveries <= Self.maxRecoveries else { throw problem }
                switch problem.slug {
                case "cursor-expired":
                    try database.sync.resetCursor()
                    summary.notes.append("away longer than the server keeps deletions: pulled everything again")
                case "history-diverged":
                    let status = try await transport.status()
                    try database.sync.restart(deviceId: device.deviceId, lastMutationId: status.lastMutationId)
                    summary.notes.append("the server's history changed (restored from a backup?): sending everything again")
                    try await push(&summary, recoveries: &recoveries)
                default:
                    throw problem
                }
            }
        }
    }
}
