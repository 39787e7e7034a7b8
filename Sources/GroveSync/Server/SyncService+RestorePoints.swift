import Foundation
import GroveCore
import GroveStore

/// Restore points: the server keeps every state a push replaced for `historyKeep` (30 days unless the
/// operator says otherwise), so that a device can see the account as it stood at any instant in that
/// window (`grove sync restore --as-of`). It reads no value to do so: states stay as opaque as they
/// came, which is what lets restore points survive sealed values.
extension SyncService {
    /// Thirty days.
    public static let defaultHistoryKeep: TimeInterval = 30 * 86_400

    /// The earliest instant a snapshot can show now: the keep window, and never before the server
    /// began keeping replaced states.
    public func earliestRestorePoint() async throws -> Date {
        max(now().addingTimeInterval(-historyKeep), try await store.historySince())
    }

    /// One page of the caller's account as it stood at `asOf`.
    public func snapshot(_ caller: Caller, asOf: Date, after: EntityKey?, limit: Int = SnapshotPage.defaultLimit) async throws
        -> SnapshotPage
    {
        let earliest = try await earliestRestorePoint()
        guard asOf <= now() else {
            throw SyncServerError.invalid(field: "asOf", message: "A restore point is an instant in the past")
        }
        guard asOf >= earliest else {
            throw SyncServerError.invalid(
                field: "asOf",
                message: "This server keeps what was replaced since \(GroveExport.formatInstant(earliest)) only: choose a later instant")
        }
        guard (1...SnapshotPage.maxLimit).contains(limit) else {
            throw SyncServerError.invalid(field: "limit", message: "A page holds 1 to \(SnapshotPage.maxLimit) rows")
        }
        let changes = try await store.snapshot(userId: caller.user.id, asOf: asOf, after: after, limit: limit)
        let last = changes.count == limit ? changes.last : nil
        return SnapshotPage(changes: changes, nextEntity: last?.entity, nextId: last?.entityId, asOf: asOf, earliest: earliest)
    }

    /// Drops the states replaced before the keep window; returns how many.
    @discardableResult
    public func pruneHistory() async throws -> Int {
        try await store.pruneHistory(replacedBefore: now().addingTimeInterval(-historyKeep))
    }
}
