import Foundation
import Hummingbird

/// Login: on a non-loopback address every request but the login page and static files needs the
/// token, as `Authorization: Bearer` or the `grove_token` cookie set by /login.
struct AuthMiddleware: RouterMiddleware {
    typealias Context = GroveRequestContext
    let token: String?

    static let cookieName = "grove_token"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let token else { return try await next(request, context) }
        let path = request.uri.path
        // The login form, the app's files, its service worker and the offline page hold no data.
        if path == "/login" || path.hasPrefix("/static/") || path == "/sw.js" || path == "/offline" {
            return try await next(request, context)
        }
        if let header = request.headers[.authorization], Self.constantTimeEqual(header, "Bearer \(token)") {
            return try await next(request, context)
        }
        if let cookie = Self.cookie(Self.cookieName, in: request.headers[.cookie]), Self.constantTimeEqual(cookie, token) {
            return try await next(request, context)
        }
        throw APIError.unauthorized
    }

    static func cookie(_ name: String, in header: String?) -> String? {
        header?.split(separator: ";").lazy.map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.hasPrefix(name + "=") }.map { String($0.dropFirst(name.count + 1)) }
    }

    /// Compares without stopping at the first difference, so response times do not leak the token.
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        var difference = UInt8(x.count == y.count ? 0 : 1)
        for i in 0..<min(x.count, y.count) { difference |= x[i] ^ y[i] }
        return difference == 0
    }
}
