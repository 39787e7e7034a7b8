import Foundation
import GroveCore
import GroveSync

/// A transport that hands every call to `inner`: a test's wrapper writes only the call it changes
/// (a server that takes small pushes, one that makes up a deletion).
protocol ForwardingTransport: SyncTransport {
    var inner: any SyncTransport { get }
}

extension ForwardingTransport {
    func status() async throws -> ServerStatus { try await inner.status() }
    func push(_ request: PushRequest) async throws -> PushResponse { try await inner.push(request) }
    func pull(cursor: Int64, limit: Int, checksum: String, full: Bool) async throws -> PullResponse {
        try await inner.pull(cursor: cursor, limit: limit, checksum: checksum, full: full)
    }
    func fork() async throws -> DeviceCredentials { try await inner.fork() }
    func reclaim(_ request: DeviceReclaim) async throws { try await inner.reclaim(request) }
    func snapshot(asOf: Date, after: EntityKey?, limit: Int) async throws -> SnapshotPage {
        try await inner.snapshot(asOf: asOf, after: after, limit: limit)
    }
}
