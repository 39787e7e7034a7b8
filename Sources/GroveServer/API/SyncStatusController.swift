import Foundation
import GroveCore
import GroveStore
import Hummingbird

/// `/api/v1/sync`: this device's sync, read-only (linking, encrypting and restoring are the CLI's:
/// they take a password or passphrase on standard input).
struct SyncStatusController {
    let database: AppDatabase

    func addRoutes(to api: APIRouter) {
        // Sync writes its state into the store like any change: kept until the data changes.
        api.get("sync", cache: .data, use: status)
    }

    /// `GET /sync`: linked or not; the server, this device, what waits and what was set aside.
    @Sendable func status(_ request: Request, context: GroveRequestContext) throws -> JSON<SyncStatusView> {
        JSON(SyncStatusView(try database.sync.status()))
    }
}
