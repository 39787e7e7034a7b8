import HTTPTypes
import Hummingbird
import Logging

/// One line per request at `info`: method, path, status and the time to the response's head, as
/// `GET /api/v1/focus 200 1.4 ms`. The query is left out: it may carry a login token.
///
/// Outermost, so that a request refused by the login or origin rules is logged too, with its status.
public struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    let logger: Logger

    public init(logger: Logger) { self.logger = logger }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // Nothing is measured or formatted when the line would not be written.
        guard logger.logLevel <= .info else { return try await next(request, context) }
        let clock = ContinuousClock()
        let start = clock.now
        do {
            let response = try await next(request, context)
            log(request, status: response.status, after: clock.now - start)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status ?? .internalServerError
            log(request, status: status, after: clock.now - start)
            throw error
        }
    }

    private func log(_ request: Request, status: HTTPResponse.Status, after elapsed: Duration) {
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        let path = request.uri.path.isEmpty ? "/" : request.uri.path
        logger.info("\(request.method.rawValue) \(path) \(status.code) \(RequestLogMiddleware.format(milliseconds)) ms")
    }

    /// Milliseconds with one decimal (`0.4`, `12.0`), the same in every locale.
    static func format(_ milliseconds: Double) -> String {
        let tenths = Int((milliseconds * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
