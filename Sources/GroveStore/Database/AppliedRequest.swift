import Foundation
import GRDB

/// A request that must be applied at most once, whatever number of times it arrives: its
/// `Idempotency-Key`, and what it asked for (a key reused for another request is refused).
///
/// A face binds one to the task that handles the request (`AppliedRequest.$current`); the first
/// write that task makes records the key in the same transaction as the change, so the key is kept
/// exactly when the change is. A second arrival then finds the key already there
/// (`AppDatabase.appliedRequest(key:)`), or — arriving while the first still runs — fails its write
/// with `AlreadyApplied` and changes nothing. A write that is refused (a rule said no) rolls the key
/// back with it: sent again, the request is judged again.
public final class AppliedRequest: @unchecked Sendable {
    /// The request the running task handles, if it came with a key.
    @TaskLocal public static var current: AppliedRequest?

    /// The client's key: 8 to 100 characters of letters, digits, `-` and `_` (a UUID, say).
    public let key: String
    /// The method and path, e.g. `POST /api/v1/focus/start`.
    public let request: String
    private let lock = NSLock()
    private var recordedFlag = false
    private var claimed = false

    /// `nil` when `key` is not 8–100 characters of letters, digits, `-` and `_`.
    public init?(key: String, request: String) {
        guard (8...100).contains(key.utf8.count), key.utf8.allSatisfy({ Self.allowed.contains($0) }) else { return nil }
        self.key = key
        self.request = String(request.prefix(300))
    }

    /// Whether a write of this request has committed (the key is kept).
    public var recorded: Bool {
        lock.lock()
        defer { lock.unlock() }
        return recordedFlag
    }

    /// Whether this write is the one to keep the key: the first write of the request, unless one is
    /// under way (tasks the request started share its task-local value and may write at once).
    func claim() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !claimed else { return false }
        claimed = true
        return true
    }

    /// The claiming write ended: the key is kept (it committed) or free for the request's next write.
    func settle(committed: Bool) {
        lock.lock()
        if committed { recordedFlag = true } else { claimed = false }
        lock.unlock()
    }

    private static let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
}

/// The request was applied already (its key is kept): nothing was changed this time.
public struct AlreadyApplied: Error, Sendable, Equatable {
    public let key: String
}

/// A kept key: when its request was applied, and what it was.
public struct AppliedRequestRecord: Sendable, Equatable {
    public var request: String
    public var applied: Date
}

extension AppDatabase {
    /// How long a key is kept: a request sent again later than this is applied again.
    public static let appliedRequestsKept: TimeInterval = 30 * 86_400

    /// The kept key `key`, if a request with it was applied.
    public func appliedRequest(key: String) throws -> AppliedRequestRecord? {
        try writer.snapshotRead { db in
            try Row.fetchOne(db.cachedStatement(sql: "SELECT request, applied_ms FROM applied_request WHERE key = ?"), arguments: [key])
                .map { AppliedRequestRecord(request: $0["request"], applied: Date(groveMillis: $0["applied_ms"])) }
        }
    }

    /// Keeps the key of the request this write belongs to, in the write's transaction, and forgets
    /// keys past `appliedRequestsKept` (an indexed range: a few rows at a time).
    static func recordApplied(_ request: AppliedRequest, now: Date, _ db: Database) throws {
        try db.cachedExecute(
            "INSERT OR IGNORE INTO applied_request (key, request, applied_ms) VALUES (?, ?, ?)",
            [request.key, request.request, now.groveMillis])
        guard db.changesCount == 1 else { throw AlreadyApplied(key: request.key) }
        try db.cachedExecute(
            "DELETE FROM applied_request WHERE applied_ms < ?", [now.addingTimeInterval(-appliedRequestsKept).groveMillis])
    }
}
