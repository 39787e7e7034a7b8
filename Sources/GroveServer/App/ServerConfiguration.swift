import Foundation

/// How `grove serve` listens.
public struct ServerConfiguration: Sendable {
    public var host: String
    public var port: Int
    /// Required (and enforced) when `host` is not a loopback address.
    public var token: String?
    /// The language model rephrasing and themes go to first (nil: the offline assistant only).
    public var assistant: AssistantConfiguration?

    public init(host: String = "127.0.0.1", port: Int = 8080, token: String? = nil, assistant: AssistantConfiguration? = nil) {
        self.host = host
        self.port = port
        self.token = token
        self.assistant = assistant
    }

    /// 127.0.0.0/8, ::1 and localhost need no login; every other address does.
    public var isLoopback: Bool { Self.isLoopback(host) }

    /// Exactly `localhost`, `::1` (bracketed or not) or a dotted-quad IPv4 address in 127.0.0.0/8.
    /// A name that merely starts with "127." (`127.0.0.1.nip.io`) resolves anywhere: it is not loopback.
    public static func isLoopback(_ host: String) -> Bool {
        let host = host.lowercased()
        if host == "localhost" || host == "::1" || host == "[::1]" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets.allSatisfy({ (1...3).contains($0.count) && $0.allSatisfy(\.isASCII) }) else { return false }
        let values = octets.compactMap { UInt8($0) }
        return values.count == 4 && values[0] == 127
    }

    /// Whether requests must carry the token.
    public var requiresAuthentication: Bool { !isLoopback }
}
