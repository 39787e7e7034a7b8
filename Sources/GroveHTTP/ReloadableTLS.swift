import Foundation
import HummingbirdCore
import Logging
import NIOCore
import NIOSSL

/// A server's certificate and key, loaded again on demand (`grove serve` and `grove sync-server` on
/// SIGHUP): a renewed certificate (Let's Encrypt every 60–90 days, `tailscale cert`) is served to the
/// next connection without a restart, and connections already open keep theirs. A file that cannot be
/// loaded leaves the one in use in place.
public final class ReloadableTLS: @unchecked Sendable {
    private let load: @Sendable () throws -> TLSConfiguration
    private let lock = NSLock()
    private var context: NIOSSLContext

    /// Loads the pair once now (a bad file is found at start, by name, never at the first connection).
    public init(load: @escaping @Sendable () throws -> TLSConfiguration) throws {
        self.load = load
        context = try NIOSSLContext(configuration: load())
    }

    /// Loads the pair again; on failure the one in use stays and the error says why.
    public func reload() throws {
        let fresh = try NIOSSLContext(configuration: load())
        lock.withLock { context = fresh }
    }

    /// The context a new connection's handshake uses.
    public var current: NIOSSLContext { lock.withLock { context } }
}

/// A child channel that speaks TLS with whatever `ReloadableTLS` holds when the connection opens,
/// then hands the channel to `base` (Hummingbird's `TLSChannel` fixes its context at start).
public struct ReloadableTLSChannel<Base: ServerChildChannel>: ServerChildChannel {
    public typealias Value = Base.Value
    let base: Base
    let tls: ReloadableTLS

    public init(_ base: Base, tls: ReloadableTLS) {
        self.base = base
        self.tls = tls
    }

    public func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls.current))
        }.flatMap {
            base.setup(channel: channel, logger: logger)
        }
    }

    public func handle(value: Base.Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

extension ReloadableTLSChannel: HTTPChannelHandler where Base: HTTPChannelHandler {
    public var responder: HTTPChannelHandler.Responder { base.responder }
}

extension HTTPServerBuilder {
    /// HTTP/1.1, over TLS when `tls` is given.
    public static func http1(configuration: HTTP1Channel.Configuration, tls: ReloadableTLS?) -> HTTPServerBuilder {
        guard let tls else { return .http1(configuration: configuration) }
        return .init { responder in
            ReloadableTLSChannel(HTTP1Channel(responder: responder, configuration: configuration), tls: tls)
        }
    }
}
