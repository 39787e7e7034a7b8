import Foundation
import GroveCore
import GroveHTTP
import GroveRemote
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOSSL
import ServiceLifecycle

/// The request context of the sync server: bodies up to the push limit, the wire's JSON coding.
public struct SyncRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The client's address as the socket saw it (password checks are throttled per address).
    public var remoteAddress: String?
    public init(source: Source) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress?.ipAddress
    }
    public var maxUploadSize: Int { SyncWire.maxPushBytes }
    public var requestDecoder: SyncJSONDecoder { SyncJSONDecoder() }
    public var responseEncoder: SyncJSONEncoder { SyncJSONEncoder() }
}

/// Where and how the sync server listens.
public struct SyncServerConfiguration: Sendable {
    public var host: String
    public var port: Int
    /// A connection that has sent no complete request head (or nothing after its last answer) for
    /// this long is closed: half-sent and idle sockets cannot pile up. Event streams being answered
    /// are not idle.
    public var idleTimeout: Duration
    /// Connections served at once; the rest wait in the listen queue (descriptors are finite).
    public var maxConnections: Int
    /// HTTPS served by the server itself (a home server without a proxy in front), reloadable; nil:
    /// plain HTTP.
    public var tls: ReloadableTLS?
    /// Whose `X-Forwarded-For` is believed, and who may read `/metrics`.
    public var access: SyncServerAccess = SyncServerAccess()
    public init(
        host: String = "127.0.0.1", port: Int = 8090, idleTimeout: Duration = .seconds(30), maxConnections: Int = 4096,
        tls: ReloadableTLS? = nil
    ) {
        self.host = host
        self.port = port
        self.idleTimeout = idleTimeout
        self.maxConnections = maxConnections
        self.tls = tls
    }
}

/// The router of the sync server (tests drive it in-process).
public func buildSyncRouter(
    service: SyncService, access: SyncServerAccess = SyncServerAccess(), logger: Logger = Logger(label: "grove.sync-server")
) -> Router<SyncRequestContext> {
    // HEAD on every GET route, answered by the GET's handler without its body.
    let router = Router(context: SyncRequestContext.self, options: .autoGenerateHeadEndpoints)
    router.add(middleware: RequestLogMiddleware(logger: logger))
    router.add(middleware: HeadBodyMiddleware())
    router.add(middleware: CompressionMiddleware())
    router.add(middleware: SyncProblemMiddleware())
    SyncController(service: service, access: access).addRoutes(to: router.group("sync/v1"))
    // Liveness: the process answers. Readiness: its database does too (a load balancer stops sending
    // requests to an instance that cannot reach it).
    router.get("healthz") { _, _ in "ok" }
    router.get("readyz") { _, _ -> Response in
        do {
            try await service.store.checkReady()
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "ready")))
        } catch {
            let detail =
                error as? SyncReadinessError == .diskFull
                ? "The sync database cannot write: its disk is full" : "The sync database does not answer"
            return SyncProblemMiddleware.response(
                SyncProblem(type: "about:blank", title: "Service Unavailable", status: 503, detail: detail))
        }
    }
    // Counts of accounts' traffic are the operator's: for the token, or for this machine alone.
    router.get("metrics") { request, context in
        try access.checkMetrics(request, context)
        return Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
            body: .init(byteBuffer: ByteBuffer(string: service.metrics.text())))
    }
    return router
}

/// The sync server (hummingbird-examples style: tests run what this returns).
/// `services` run beside the server (the PostgreSQL pool and its poke listener); `beforeStart` runs
/// once they have started and before the server listens (migrations).
public func buildSyncApplication(
    service: SyncService, configuration: SyncServerConfiguration, services: [any Service] = [],
    beforeStart: [@Sendable () async throws -> Void] = [],
    logger: Logger = Logger(label: "grove.sync-server"),
    onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
) throws -> some ApplicationProtocol {
    let idle = configuration.idleTimeout.components
    // A client too slow to send its request is cut off (`RequestDeadlineHandler`), answered or not.
    let server = HTTPServerBuilder.http1(
        configuration: .init(additionalChannelHandlers: [RequestDeadlineHandler()], idleTimeout: .seconds(idle.seconds)),
        tls: configuration.tls)
    var application = Application(
        router: buildSyncRouter(service: service, access: configuration.access, logger: logger),
        server: server,
        configuration: .init(
            address: .hostname(configuration.host, port: configuration.port), serverName: "Grove Sync",
            availableConnectionsDelegate: MaximumAvailableConnections(configuration.maxConnections)),
        services: services + [TombstonePruning(service: service, logger: logger)],
        onServerRunning: onServerRunning,
        logger: logger)
    for process in beforeStart { application.beforeServerStarts(perform: process) }
    return application
}

/// Drops old deletions and replaced states past the keep window once an hour (and at start), so that
/// the server keeps neither forever.
struct TombstonePruning: Service {
    let service: SyncService
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    let removed = try await service.pruneTombstones()
                    if removed > 0 { logger.info("Pruned deletions", metadata: ["count": "\(removed)"]) }
                    // Restore points older than the keep window go on the same hourly round.
                    let replaced = try await service.pruneHistory()
                    if replaced > 0 { logger.info("Pruned replaced states", metadata: ["count": "\(replaced)"]) }
                } catch is CancellationError {
                    return  // shutting down
                } catch {
                    logger.warning("Pruning deletions failed", metadata: ["error": "\(error)"])
                }
                try? await Task.sleep(for: .seconds(3600))
            }
        }
    }
}

extension DeviceCredentials: ResponseEncodable {}
extension DeviceInfo: ResponseEncodable {}
extension ServerStatus: ResponseEncodable {}
extension PushResponse: ResponseEncodable {}
extension PullResponse: ResponseEncodable {}
extension SnapshotPage: ResponseEncodable {}
extension PlainRows: ResponseEncodable {}
extension KeyEnvelope: ResponseEncodable {}
extension PreloginResponse: ResponseEncodable {}
