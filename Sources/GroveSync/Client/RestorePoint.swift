import Foundation
import GroveCore
import GroveStore

/// What rebuilding a restore point wrote.
public struct RestoreSummary: Sendable, Codable, Equatable {
    /// The instant shown.
    public var asOf: Date
    /// Rows the server held at that instant.
    public var rows = 0
    /// Rows written into the new store (the rest were its defaults already, or set aside).
    public var applied = 0
    /// Rows the store could not hold, set aside with their rule (`grove sync status` in that store).
    public var refused = 0

    public init(asOf: Date) { self.asOf = asOf }
}

/// `grove sync restore --as-of`: the account as it stood at an instant, rebuilt a page at a time
/// into a new store from the server's restore point (constant memory whatever the account's size).
public enum RestorePoint {
    public static func rebuild(
        from transport: any SyncTransport, asOf: Date, into target: AppDatabase, pageSize: Int = SnapshotPage.defaultLimit
    ) async throws -> RestoreSummary {
        var summary = RestoreSummary(asOf: asOf)
        var after: EntityKey?
        while true {
            let page = try await transport.snapshot(asOf: asOf, after: after, limit: pageSize)
            let next = page.nextEntity.map { EntityKey(entity: $0, id: page.nextId ?? "") }
            let result = try target.sync.rebuild(page.changes, last: next == nil)
            summary.rows += page.changes.count
            summary.applied += result.applied
            summary.refused += result.refused.count
            guard let next, next != after else { return summary }
            after = next
        }
    }
}
