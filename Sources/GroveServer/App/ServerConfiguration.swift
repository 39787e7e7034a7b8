import Foundation
import GroveCore
import GroveHTTP
import GroveRemote
import GroveSystem

/// How `grove serve` listens.
public struct ServerConfiguration: Sendable {
    /// `grove serve`'s port: "GROV" on a phone's keypad. Not 8080, which llama.cpp, Jenkins and most
    /// development servers take first; the browser extension starts with the same one.
    public static let defaultPort = 4768

    public var host: String
    public var port: Int
    /// Required when `host` is not a loopback address; enforced whenever there is one (on loopback too,
    /// so that other programs and extensions with loopback access are kept out).
    public var token: String?
    /// The language model rephrasing and themes go to first (nil: the offline assistant only).
    public var assistant: AssistantConfiguration?
    /// Proves that a visit to the gateway comes from Grove's browser extension (which reads it from
    /// `GET /api/v1/pause/gate`) and not from a link on another site: no other site can read it, since
    /// Grove sends no CORS headers. New with every start of the server.
    public var gateKey = Hex.random(bytes: 16)
    /// Holds the desktop's notifications while a focus session grows, however it was started:
    /// `grove serve` on a person's desktop has one; tests and hosted instances do not.
    public var notificationHold: NotificationHold?
    /// How long a browser's push service may take to accept a notice: one that hangs fails after
    /// this, and delays no other browser.
    public var pushDeadline: Duration = .seconds(10)
    /// How fetching a content source is bounded (adding one fetches it at once, and the background
    /// refresh does hourly): a source that hangs fails within 15 s.
    public var contentFetch: ContentRefresher.Bounds = .standard
    /// The client the assistant's model is asked through, and the time its whole answer may take (a
    /// model that takes longer leaves the offline assistant to answer). A test on a loaded machine
    /// gives `.patient`: its loopback model answers, only the load is slow.
    public var assistantFetch: ContentRefresher.Bounds = .assistant
    /// How long a connection may wait between requests before it is closed.
    public var idleTimeout: TimeInterval = 60
    /// At most this many connections at once: the next waits until one closes (pages keep one open
    /// each for live updates; a flood of connections cannot take the descriptors).
    public var maxConnections = 512

    /// The addresses a person's browser uses through a proxy that terminates TLS (`tailscale serve`,
    /// Caddy, nginx): their `Host` and `Origin` pass the checks, and every request for them needs a login.
    public var publicOrigins: [PublicOrigin] = []
    /// HTTPS served by `grove serve` itself (reloaded on SIGHUP); nil: plain HTTP.
    public var tls: ReloadableTLS?
    /// Whether a request straight from this machine needs a login too: a token given on a loopback
    /// address keeps other programs and extensions out. A token Grove stored for scripts and proxies
    /// does not.
    public var loginOnLoopback: Bool

    public init(
        host: String = "127.0.0.1", port: Int = ServerConfiguration.defaultPort, token: String? = nil,
        assistant: AssistantConfiguration? = nil
    ) {
        self.host = host
        self.port = port
        self.token = token
        self.assistant = assistant
        loginOnLoopback = token != nil
    }

    /// 127.0.0.0/8, ::1 and localhost need no login; every other address does.
    public var isLoopback: Bool { Self.isLoopback(host) }

    /// Exactly `localhost` (any case), `::1` (bracketed or not) or a dotted-quad IPv4 address in
    /// 127.0.0.0/8. A name that merely starts with "127." (`127.0.0.1.nip.io`) resolves anywhere: it
    /// is not loopback. Read as bytes: every request asks it of the listener, the peer and `Host`.
    public static func isLoopback(_ host: String) -> Bool {
        let bytes = host.utf8
        if bytes.elementsEqual("::1".utf8) || bytes.elementsEqual("[::1]".utf8) { return true }
        // `| 0x20` lower-cases an ASCII letter and turns no other byte into one.
        if bytes.count == 9, zip(bytes, "localhost".utf8).allSatisfy({ $0 | 0x20 == $1 }) { return true }
        var dots = 0, digits = 0, value = 0, first = 0
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                digits += 1
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                guard digits <= 3, value <= 255 else { return false }
            case UInt8(ascii: "."):
                guard digits > 0, dots < 3 else { return false }
                if dots == 0 { first = value }
                dots += 1
                digits = 0
                value = 0
            default: return false
            }
        }
        return dots == 3 && digits > 0 && first == 127
    }

    /// Whether requests must carry the token: always off loopback, and on loopback when one was given.
    public var requiresAuthentication: Bool { !isLoopback || token != nil }

    /// Whether any request can need a login (and so a token for scripts must exist): a network
    /// address, a public origin, HTTPS or a token given.
    public var hasLogin: Bool { requiresAuthentication || !publicOrigins.isEmpty || tls != nil }

    /// Whether a request straight from this machine is let in without a login: a loopback listener
    /// given no token.
    public var loopbackIsOpen: Bool { isLoopback && !loginOnLoopback }
}
