import HTTPTypes
import Hummingbird

/// A HEAD answer never carries a body (RFC 9110 §9.3.2). The router answers HEAD on every GET route
/// by itself (`.autoGenerateHeadEndpoints`) and drops the GET's body; this drops the body of the
/// answers that come from elsewhere: a 404 for a place with nothing, a refused login, a problem.
public struct HeadBodyMiddleware<Context: RequestContext>: RouterMiddleware {
    public init() {}

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .head else { return try await next(request, context) }
        var response = try await next(request, context)
        // The length the GET would send, where it is known before its body is written (RFC 9110
        // §8.6). Set after the body is dropped: setting a body sets its length.
        let length = response.body.contentLength
        response.body = ResponseBody()
        if let length { response.headers[.contentLength] = String(length) }
        return response
    }
}
