import Foundation
import GroveHTTP
import Hummingbird
import NIOCore

/// Who the sync server believes about a client's address, and who may read its counters.
///
/// - A proxy in front (nginx in `deploy/`) makes every client's socket address its own: only a proxy
///   the operator names (`--trusted-proxy`) is believed when it says, in the last `X-Forwarded-For`
///   entry, whom it saw. Anyone else's header is ignored — a local process, or a client that put one
///   in its own request, cannot pick the address it is throttled as.
/// - `/metrics` (traffic, accounts' activity) is the operator's: with a token (`--metrics-token-file`),
///   for a request that carries it; without one, for this machine alone — a socket on loopback that no
///   proxy forwarded.
public struct SyncServerAccess: Sendable {
    /// Socket addresses of proxies whose `X-Forwarded-For` is believed.
    public var trustedProxies: Set<String>
    /// The bearer token `/metrics` asks for; nil: loopback only.
    public var metricsToken: String?

    public init(trustedProxies: Set<String> = [], metricsToken: String? = nil) {
        self.trustedProxies = trustedProxies
        self.metricsToken = metricsToken
    }

    /// The client's address for throttling: the socket's, or the last `X-Forwarded-For` entry when the
    /// socket is a trusted proxy (the entry that proxy added itself).
    func clientAddress(_ request: Request, _ context: SyncRequestContext) -> String? {
        guard let peer = context.remoteAddress, trustedProxies.contains(peer), let forwarded = ForwardedFor.client(in: request) else {
            return context.remoteAddress
        }
        return forwarded
    }

    /// Throws unless the request may read `/metrics`.
    func checkMetrics(_ request: Request, _ context: SyncRequestContext) throws(SyncServerError) {
        if let metricsToken {
            guard let header = request.headers[.authorization], header.hasPrefix("Bearer "),
                SyncService.constantTimeEqual(String(header.dropFirst("Bearer ".count)), metricsToken)
            else { throw .unauthorized }
            return
        }
        let loopback = context.remoteAddress.map { $0 == "::1" || $0.hasPrefix("127.") } ?? true
        guard loopback, request.headers.first(where: { $0.name.canonicalName == "x-forwarded-for" }) == nil else {
            throw .forbidden("/metrics is served to this machine only, or with --metrics-token-file")
        }
    }
}

/// Proxy addresses from the command line, each an IPv4 or IPv6 address.
extension SyncServerAccess {
    /// Throws `invalid` naming the option when an entry is not an IP address.
    public static func proxies(_ values: [String]) throws(SyncServerError) -> Set<String> {
        var addresses = Set<String>()
        for value in values {
            guard let address = try? SocketAddress(ipAddress: value, port: 0).ipAddress else {
                throw .invalid(field: "--trusted-proxy", message: "'\(value)' is not an IP address (the proxy's, as this server sees it)")
            }
            addresses.insert(address)
        }
        return addresses
    }
}
