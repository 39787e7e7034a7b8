import Foundation
import HTTPTypes
import Hummingbird

/// Who may talk to this server: the rules against DNS rebinding and cross-site writes.
///
/// - On a loopback address, the `Host` must be a loopback name or one of the public origins a proxy
///   forwards (`--public-origin`): a page on another site that rebinds its own name to 127.0.0.1 sends
///   its own name as `Host` and is refused, so it can neither read (`GET /api/v1/export`) nor write.
/// - Whatever the address, a request that changes data must come from this server's own pages: an
///   `Origin` (or, without one, a `Sec-Fetch-Site`) naming another site is refused. For a public
///   origin, the `Origin` must be exactly it (scheme and port included).
struct OriginMiddleware: RouterMiddleware {
    typealias Context = GroveRequestContext
    let configuration: ServerConfiguration

    static let secFetchSite = HTTPField.Name("Sec-Fetch-Site")

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let host = request.head.authority.flatMap { Authority($0) }
        let publicOrigin = host.flatMap { host in configuration.publicOrigins.first { $0.matches(host: host) } }
        if configuration.isLoopback, let raw = request.head.authority {
            guard let host, host.isLoopback || publicOrigin != nil else { throw APIError.forbiddenHost(raw) }
        }
        if request.method != .get && request.method != .head && request.method != .options, !Self.isExtensionReport(request, configuration)
        {
            let fetchSite = Self.secFetchSite.flatMap { request.headers[$0] }
            if let origin = request.headers[.origin], origin == "null" {
                // A form posted from a page sent with `Referrer-Policy: no-referrer` (all of Grove's)
                // says `null`; the browser's own `Sec-Fetch-Site` then tells whether it was this site.
                guard fetchSite == "same-origin" else { throw APIError.forbiddenOrigin }
            } else if let origin = request.headers[.origin] {
                if let publicOrigin {
                    guard publicOrigin.matches(origin: origin) else { throw APIError.forbiddenOrigin }
                } else {
                    guard let originAuthority = Authority(origin: origin), let host,
                        originAuthority.sameSite(as: host, defaultPort: configuration.tls == nil ? 80 : 443)
                    else { throw APIError.forbiddenOrigin }
                }
            } else if let site = fetchSite, site == "cross-site" || site == "same-site" {
                throw APIError.forbiddenOrigin
            }
        }
        return try await next(request, context)
    }
}

extension OriginMiddleware {
    static let gateKeyHeader = HTTPField.Name("Grove-Gate-Key")
    /// Origins no web page can send: a browser extension's own pages and worker.
    static let extensionSchemes = ["chrome-extension://", "moz-extension://", "safari-web-extension://"]

    /// The one write Grove's browser extension makes: its measure of a visit after Proceed
    /// (`PUT /api/v1/pause/sessions/{id}/visit`), from an extension's origin and with the gate key,
    /// which only a reader of this API holds (`GET /api/v1/pause/gate`; a web page cannot read it, and
    /// cannot send this header without a preflight Grove never answers). Anything else from an
    /// extension's origin is a cross-site write like any other.
    static func isExtensionReport(_ request: Request, _ configuration: ServerConfiguration) -> Bool {
        guard request.method == .put, let origin = request.headers[.origin]?.lowercased(),
            extensionSchemes.contains(where: origin.hasPrefix), let key = gateKeyHeader.flatMap({ request.headers[$0] }),
            AuthMiddleware.constantTimeEqual(key, configuration.gateKey)
        else { return false }
        let parts = request.uri.path.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 7 && parts[0].isEmpty && parts[1] == "api" && parts[2] == "v1" && parts[3] == "pause"
            && parts[4] == "sessions" && UUID(uuidString: String(parts[5])) != nil && parts[6] == "visit"
    }
}

/// A host and optional port, from a `Host` header (`localhost:8080`, `[::1]:8080`) or an `Origin`
/// (`http://[::1]:8080`); IPv6 brackets removed and names lower-cased so that both compare equal.
struct Authority: Equatable {
    var host: String
    var port: Int?

    init?(_ text: String) {
        let text = text.lowercased()
        guard !text.isEmpty, !text.contains(where: { $0 == "/" || $0 == "@" || $0 == "\\" || $0.isWhitespace }) else { return nil }
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            if rest.isEmpty {
                port = nil
            } else {
                guard rest.hasPrefix(":"), let p = Int(rest.dropFirst()), (0...65535).contains(p) else { return nil }
                port = p
            }
        } else {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2, let first = parts.first, !first.isEmpty else { return nil }
            host = String(first)
            if parts.count == 2 {
                guard let p = Int(parts[1]), (0...65535).contains(p) else { return nil }
                port = p
            } else {
                port = nil
            }
        }
    }

    /// The authority of an `Origin` header (`scheme://host[:port]`); nil for `null` or anything else.
    init?(origin: String) {
        guard let range = origin.range(of: "://") else { return nil }
        let scheme = origin[..<range.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { return nil }
        self.init(String(origin[range.upperBound...]))
        if port == nil { port = scheme == "https" ? 443 : 80 }
    }

    /// Same host and same port (a missing port is the scheme's default: `defaultPort` for `Host`, 80
    /// for plain HTTP, 443 when the server speaks HTTPS).
    func sameSite(as other: Authority, defaultPort: Int = 80) -> Bool {
        host == other.host && (port ?? defaultPort) == (other.port ?? defaultPort)
    }

    /// localhost, 127.0.0.0/8 or ::1.
    var isLoopback: Bool { ServerConfiguration.isLoopback(host) }
}
