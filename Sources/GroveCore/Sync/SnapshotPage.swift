import Foundation

/// One page of an account as it stood at an instant (`GET /sync/v1/snapshot`): a restore point.
/// The rows come by entity and id; the next page starts after `next`, absent on the last page.
public struct SnapshotPage: Codable, Sendable {
    public var changes: [SyncChange]
    /// The last row's entity and id when more may follow.
    public var nextEntity: String?
    public var nextId: String?
    /// The instant the page shows.
    public var asOf: Date
    /// The earliest instant this server can show now (it keeps replaced states for a while only).
    public var earliest: Date

    public init(changes: [SyncChange], nextEntity: String?, nextId: String?, asOf: Date, earliest: Date) {
        self.changes = changes
        self.nextEntity = nextEntity
        self.nextId = nextId
        self.asOf = asOf
        self.earliest = earliest
    }

    /// Rows a page holds by default, and at most.
    public static let defaultLimit = 500
    public static let maxLimit = 2000
}
