import Foundation
import GroveHTTP
import GroveStore
import HTTPTypes
import Hummingbird

/// Who needs a login. A request straight from this machine's loopback to a loopback address, through
/// no proxy, is let in as before (`ServerConfiguration.loopbackIsOpen`). Every other — from the
/// network, for a public origin, through a proxy even when it connects from 127.0.0.1 — needs the
/// token (`Authorization: Bearer`, for scripts) or a signed-in browser's session cookie (`WebSessions`).
/// The login form, the app's files, its service worker and the offline page hold no data.
struct AuthMiddleware: RouterMiddleware {
    typealias Context = GroveRequestContext
    let configuration: ServerConfiguration
    let sessions: WebSessions

    static let cookieName = "grove_session"
    /// Headers a proxy adds; a request carrying any came through one.
    static let forwardingHeaders = ["Forwarded", "X-Forwarded-For", "X-Forwarded-Host", "X-Forwarded-Proto", "X-Real-IP", "Via"]
        .compactMap { HTTPField.Name($0) }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if Self.isDirect(request, context: context, configuration: configuration) { return try await next(request, context) }
        let path = request.uri.path
        if path == "/login" || path.hasPrefix("/static/") || path == "/sw.js" || path == "/offline" || path == "/manifest.webmanifest" {
            return try await next(request, context)
        }
        if let token = configuration.token, let header = request.headers[.authorization],
            Self.constantTimeEqual(header, "Bearer \(token)")
        {
            return try await next(request, context)
        }
        if let cookie = Self.cookie(Self.cookieName, in: request.headers[.cookie]), try await sessions.isSignedIn(cookie) {
            return try await next(request, context)
        }
        throw APIError.unauthorized
    }

    /// Straight from this machine: a loopback listener given no token, a loopback peer, a loopback
    /// `Host`, and no sign of a proxy or of a page on another host.
    static func isDirect(_ request: Request, context: Context, configuration: ServerConfiguration) -> Bool {
        guard configuration.loopbackIsOpen else { return false }
        if let peer = context.remoteAddress, !ServerConfiguration.isLoopback(peer) { return false }
        if let raw = request.head.authority, Authority(raw)?.isLoopback != true { return false }
        if forwardingHeaders.contains(where: { request.headers[$0] != nil }) { return false }
        // A page of a public origin through a proxy that rewrote Host and added nothing still names
        // itself. (Another site's page may name itself too — a link, the extension's redirect — and
        // stays let in: it reads nothing, and cannot write, `OriginMiddleware`.)
        for name in [HTTPField.Name.origin, .referer] {
            if let value = request.headers[name],
                configuration.publicOrigins.contains(where: { $0.matches(origin: Self.origin(of: value)) })
            {
                return false
            }
        }
        return true
    }

    /// `scheme://authority` of a URL (a `Referer` carries a path too).
    static func origin(of url: String) -> String {
        guard let range = url.range(of: "://") else { return url }
        let rest = url[range.upperBound...]
        return String(url[..<range.upperBound]) + String(rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" })
    }

    /// The client's address: the socket's, or — when the socket is this machine's, so a proxy here —
    /// the last address its `X-Forwarded-For` names (the one the proxy itself added). Any process on
    /// this machine is believed: straight from loopback it needs no login at all.
    static func clientAddress(_ request: Request, context: Context) -> String {
        let peer = context.remoteAddress ?? "127.0.0.1"
        guard ServerConfiguration.isLoopback(peer), let forwarded = ForwardedFor.client(in: request) else { return peer }
        return forwarded
    }

    /// Whether the browser reached this server over HTTPS: served here, or a proxy's https public origin.
    static func isSecure(_ request: Request, configuration: ServerConfiguration) -> Bool {
        if configuration.tls != nil { return true }
        if let name = HTTPField.Name("X-Forwarded-Proto"), request.headers[name]?.lowercased() == "https" { return true }
        guard let raw = request.head.authority, let host = Authority(raw) else { return false }
        return configuration.publicOrigins.contains { $0.secure && $0.matches(host: host) }
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
