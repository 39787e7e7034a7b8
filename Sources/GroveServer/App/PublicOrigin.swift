import Foundation

/// An address a person's browser uses for this server through a proxy: `https://grove.tail1234.ts.net`
/// (`--public-origin`). Scheme, host and port; nothing after them.
public struct PublicOrigin: Sendable, Equatable, CustomStringConvertible {
    public var secure: Bool
    public var host: String
    public var port: Int

    /// Parses `https://name[:port]` or `http://name[:port]`, a trailing slash allowed; nil for
    /// anything else (a path, a user, another scheme).
    public init?(_ text: String) {
        var text = text.trimmingCharacters(in: .whitespaces)
        if text.hasSuffix("/") { text.removeLast() }
        guard let range = text.range(of: "://") else { return nil }
        let scheme = text[..<range.lowerBound].lowercased()
        guard scheme == "https" || scheme == "http", let authority = Authority(String(text[range.upperBound...])),
            !authority.host.isEmpty
        else { return nil }
        secure = scheme == "https"
        host = authority.host
        port = authority.port ?? (secure ? 443 : 80)
    }

    /// The scheme's port: 443 for HTTPS, 80 for HTTP.
    var defaultPort: Int { secure ? 443 : 80 }

    public var description: String {
        let shown = host.contains(":") ? "[\(host)]" : host
        return (secure ? "https://" : "http://") + shown + (port == defaultPort ? "" : ":\(port)")
    }

    /// Whether a request's `Host` names this origin (a missing port is the scheme's default).
    func matches(host authority: Authority) -> Bool {
        authority.host == host && (authority.port ?? defaultPort) == port
    }

    /// Whether an `Origin` header is exactly this origin.
    func matches(origin: String) -> Bool {
        PublicOrigin(origin) == self
    }
}
