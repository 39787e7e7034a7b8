import AsyncHTTPClient
import NIOCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Failures that mean a request met a connection already closed, not a server that refused or failed
/// it: the one case an HTTP client may send the request again by itself.
enum StaleConnection {
    /// Whether `error` is worth one more attempt on a new connection: for an `idempotent` request,
    /// any connection closed or reset before an answer; for any other, only a request that never left
    /// (it was written to a channel already closed, so the server cannot have acted on it).
    static func retries(_ error: any Error, idempotent: Bool) -> Bool {
        if let error = error as? ChannelError, error == .ioOnClosedChannel || error == .alreadyClosed { return true }
        guard idempotent else { return false }
        if let error = error as? HTTPClientError, error == .remoteConnectionClosed { return true }
        if let error = error as? IOError { return [ECONNRESET, EPIPE].contains(error.errnoCode) }
        return false
    }
}
