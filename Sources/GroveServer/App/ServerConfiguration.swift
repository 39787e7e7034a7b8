import Foundation

/// How `grove serve` listens.
public struct ServerConfiguration: Sendable {
    public var host: String
    public var port: Int
    /// Required (and enforced) when `host` is not a loopback address.
    public var token: String?

    public init(host: String = "127.0.0.1", port: Int = 8080, token: String? = nil) {
        self.host = host
        self.port = port
        self.token = token
    }

    /// 127.0.0.0/8, ::1 and localhost need no login; every other address does.
    public var isLoopback: Bool { Self.isLoopback(host) }

    public static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
    }

    /// Whether requests must carry the token.
    public var requiresAuthentication: Bool { !isLoopback }
}
