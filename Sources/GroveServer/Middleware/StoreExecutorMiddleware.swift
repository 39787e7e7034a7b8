import GroveStore
import Hummingbird

/// Runs a handler on the store's own threads (`StoreExecutor`): handlers call the store, whose
/// SQLite work blocks its thread, and Swift's cooperative pool (one thread per core) must stay free
/// for the event loops' work and for every other request. One slow query then holds one store
/// thread, never the server.
///
/// Carried by the route group of the handlers that call the store (`RouteGroups.store`).
struct StoreExecutorMiddleware: RouterMiddleware {
    typealias Context = GroveRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try await withTaskExecutorPreference(StoreExecutor.shared) { try await next(request, context) }
    }
}
