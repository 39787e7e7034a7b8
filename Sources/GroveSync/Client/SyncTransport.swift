import Foundation
import GroveCore

/// How a device reaches its sync server: HTTP in the product (`HTTPSyncTransport`), direct calls
/// through a lossy fake network in the convergence simulation.
///
/// Refusals arrive as `SyncProblem` (the server's RFC 9457 problem); anything else is a network error.
public protocol SyncTransport: Sendable {
    func status() async throws -> ServerStatus
    func push(_ request: PushRequest) async throws -> PushResponse
    /// `full`: every change, also those that are exactly what this device pushed (a pull from 0 that
    /// must see every row, to tell what was deleted elsewhere).
    func pull(cursor: Int64, limit: Int, checksum: String, full: Bool) async throws -> PullResponse
    /// A new device for this account, for a store found to be a copy of another device's.
    func fork() async throws -> DeviceCredentials
    /// Asks a server restored from an older backup to take this device back on the strength of its
    /// token (`unknown-device` when the token cannot prove it: the device logs in again).
    func reclaim(_ request: DeviceReclaim) async throws
    /// One page of the account as it stood at `asOf` (a restore point), rows after `after`.
    func snapshot(asOf: Date, after: EntityKey?, limit: Int) async throws -> SnapshotPage
}
