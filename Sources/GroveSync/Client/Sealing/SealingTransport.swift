import Foundation
import GroveCore
import NIOConcurrencyHelpers

/// A transport for an encrypted account: every push sealed, every pull and restore point opened, with
/// the device's data key. A box that does not open (changed, or moved from another record) is set
/// aside and said (`refused`), never applied and never blocking the changes behind it; a box under
/// another key stops the sync with `AccountKeyError.otherKey` before anything is pushed.
public struct SealingTransport: SyncTransport {
    public let inner: any SyncTransport
    public let sealer: Sealer
    /// What was set aside since the last `takeRefused()`: the record and why.
    private let refused = NIOLockedValueBox([(key: EntityKey, sentence: String)]())

    public init(inner: any SyncTransport, key: DataKey) {
        self.inner = inner
        sealer = Sealer(key: key)
    }

    /// The records set aside so far and why (then forgotten). They still count as seen by a pull: a
    /// record the server holds unopenable is not one it no longer has.
    public func takeRefused() -> [(key: EntityKey, sentence: String)] {
        refused.withLockedValue { list in
            defer { list = [] }
            return list
        }
    }

    public func status() async throws -> ServerStatus { try await inner.status() }

    public func push(_ request: PushRequest) async throws -> PushResponse {
        var sealed = request
        sealed.mutations = try request.mutations.map(sealer.seal)
        return try await inner.push(sealed)
    }

    public func pull(cursor: Int64, limit: Int, checksum: String, full: Bool) async throws -> PullResponse {
        var page = try await inner.pull(cursor: cursor, limit: limit, checksum: checksum, full: full)
        page.changes = try open(page.changes)
        return page
    }

    public func fork() async throws -> DeviceCredentials { try await inner.fork() }
    public func reclaim(_ request: DeviceReclaim) async throws { try await inner.reclaim(request) }

    public func snapshot(asOf: Date, after: EntityKey?, limit: Int) async throws -> SnapshotPage {
        var page = try await inner.snapshot(asOf: asOf, after: after, limit: limit)
        page.changes = try open(page.changes)
        return page
    }

    /// Opens each change; plain values on an encrypted account are refused like a box that does not open
    /// (a server cannot plant a value the owner never sealed).
    private func open(_ changes: [SyncChange]) throws -> [SyncChange] {
        var result: [SyncChange] = []
        result.reserveCapacity(changes.count)
        for change in changes {
            do {
                result.append(try sealer.open(change))
            } catch let error as AccountKeyError {
                switch error {
                case .tampered, .unsealed, .unsealedDeletion:
                    refused.withLockedValue { $0.append((EntityKey(entity: change.entity, id: change.entityId), error.description)) }
                default: throw error
                }
            }
        }
        return result
    }
}
