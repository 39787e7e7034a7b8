import GroveStore
import Hummingbird

/// Runs every handler on the store's own threads (`StoreExecutor`): handlers call the store, whose
/// SQLite work blocks its thread, and Swift's cooperative pool (one thread per core) must stay free
/// for the event loops' work and for every other request. One slow query then holds one store
/// thread, never the server.
struct StoreExecutorMiddleware: RouterMiddleware {
    typealias Context = GroveRequestContext

    /// Routes that answer from memory and go to the store's threads themselves on a miss: the hop to
    /// another thread and back would cost them more than their whole answer.
    static let cachedPaths: Set<String> = [
        "/api/v1/focus/current", "/api/v1/focus/stats", "/api/v1/focus/preferences", "/api/v1/intentions/current", "/api/v1/preferences",
        "/api/v1/themes", "/api/v1/pause/apps", "/api/v1/pause/preferences",
    ]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.method == .get, Self.cachedPaths.contains(request.uri.path) { return try await next(request, context) }
        return try await withTaskExecutorPreference(StoreExecutor.shared) { try await next(request, context) }
    }
}
