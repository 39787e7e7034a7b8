import GroveCore
import HTTPTypes
import Hummingbird

/// Headers on every response, errors included, that keep the web app to itself: a content security
/// policy the pages themselves pass (scripts and styles from this server only; inline `style`
/// attributes carry theme colours, which are validated hex), no framing, no MIME sniffing, no referrer.
struct SecurityHeadersMiddleware: RouterMiddleware {
    typealias Context = GroveRequestContext

    static let contentSecurityPolicy = [
        "default-src 'self'", "script-src 'self'", "style-src 'self'", "style-src-attr 'unsafe-inline'", "img-src 'self' data:",
        "connect-src 'self'", "object-src 'none'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
    ].joined(separator: "; ")

    static let xFrameOptions = HTTPField.Name("X-Frame-Options")
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            response = Problem.from(error).response()
        }
        response.headers[.contentSecurityPolicy] = Self.contentSecurityPolicy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.crossOriginResourcePolicy] = "same-origin"
        if let frame = Self.xFrameOptions { response.headers[frame] = "DENY" }
        if let referrer = Self.referrerPolicy { response.headers[referrer] = "no-referrer" }
        return response
    }
}
