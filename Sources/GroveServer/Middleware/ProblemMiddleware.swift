import Foundation
import Hummingbird
import Logging

/// Turns every error into a problem response (API) or a plain error page (web), and refuses
/// oversized bodies up front with 413.
struct ProblemMiddleware: RouterMiddleware {
    typealias Context = GroveRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > GroveRequestContext.maxBodySize {
            return Problem.from(APIError.tooLarge).response()
        }
        do {
            return try await next(request, context)
        } catch {
            var problem = Problem.from(error)
            // Collecting a body past the limit surfaces as NIO's "too large".
            if "\(error)".contains("tooLarge") || "\(error)".contains("contentTooLarge") { problem = Problem.from(APIError.tooLarge) }
            if problem.status >= 500 { context.logger.error("Request failed", metadata: ["path": "\(request.uri.path)", "error": "\(error)"]) }
            if !request.uri.path.hasPrefix("/api/"), request.method == .get, problem.status == 401 {
                return Response(status: .seeOther, headers: [.location: "/login?next=\(request.uri.path)"])
            }
            return problem.response()
        }
    }
}

/// Login and origin checks.
///
/// On a non-loopback address every request but the login page needs the token, as
/// `Authorization: Bearer` or the `grove_token` cookie set by /login. Whatever the address, a request
/// that changes data and carries an `Origin` from elsewhere is refused (no cross-site form posts).
struct AuthMiddleware: RouterMiddleware {
    typealias Context = GroveRequestContext
    let token: String?

    static let cookieName = "grove_token"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.method != .get && request.method != .head, let origin = request.headers[.origin] {
            let host = request.head.authority ?? ""
            let originHost = URL(string: origin)?.host.map { h in URL(string: origin)?.port.map { "\(h):\($0)" } ?? h } ?? ""
            guard !host.isEmpty, originHost == host else { throw APIError.forbiddenOrigin }
        }
        guard let token else { return try await next(request, context) }
        let path = request.uri.path
        if path == "/login" || path.hasPrefix("/static/") { return try await next(request, context) }
        if let header = request.headers[.authorization], header == "Bearer \(token)" { return try await next(request, context) }
        if Self.cookie(Self.cookieName, in: request.headers[.cookie]) == token { return try await next(request, context) }
        throw APIError.unauthorized
    }

    static func cookie(_ name: String, in header: String?) -> String? {
        header?.split(separator: ";").lazy.map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.hasPrefix(name + "=") }.map { String($0.dropFirst(name.count + 1)) }
    }
}
