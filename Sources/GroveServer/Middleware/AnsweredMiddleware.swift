import GroveStore
import Hummingbird

/// Signals after every answer (see `MaintenanceService`): the only way the server learns it was busy
/// without looking on a timer.
struct AnsweredMiddleware<Context: RequestContext>: RouterMiddleware {
    let signal: WakeSignal

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        defer { signal.signal() }
        return try await next(request, context)
    }
}
