import GroveStore
import Hummingbird

/// Runs every handler on the store's own threads (`StoreExecutor`): handlers call the store, whose
/// SQLite work blocks its thread, and Swift's cooperative pool (one thread per core) must stay free
/// for the event loops' work and for every other request. One slow query then holds one store
/// thread, never the server.
///
/// A route registered with `onEventLoop` (it answers from memory and goes to the store's threads
/// itself on a miss) is left where it is.
struct StoreExecutorMiddleware: RouterMiddleware {
    typealias Context = GroveRequestContext
    let policies: RoutePolicies

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.method == .get || request.method == .head, policies.policy(for: request.uri.path)?.onEventLoop == true {
            return try await next(request, context)
        }
        return try await withTaskExecutorPreference(StoreExecutor.shared) { try await next(request, context) }
    }
}
