import Foundation
import GroveCore
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
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

/// Request bodies in the wire's coding; a malformed body is a 422 naming the field.
public struct SyncJSONDecoder: RequestDecoder {
    /// `mutations[0].fields.name`: where in the body a value is.
    static func path(_ keys: [any CodingKey]) -> String {
        keys.reduce(into: "") { text, key in
            if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
        }
    }

    /// The longest a request body may take to arrive (a body sent a byte at a time holds nothing longer).
    static let bodyTimeout: Duration = .seconds(30)

    public func decode<T: Decodable>(_ type: T.Type, from request: Request, context: some RequestContext) async throws -> T {
        let buffer: ByteBuffer
        let limit = context.maxUploadSize
        do {
            buffer = try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
                group.addTask { try await request.body.collect(upTo: limit) }
                group.addTask {
                    try await Task.sleep(for: Self.bodyTimeout); return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let body = first else {
                    throw SyncServerError.malformed(
                        field: "body", message: "The body did not arrive within \(Self.bodyTimeout.components.seconds) s")
                }
                return body
            }
        } catch let error as SyncServerError {
            throw error
        } catch is CancellationError {
            throw SyncServerError.malformed(field: "body", message: "The body did not arrive")
        } catch let error where "\(error)".contains("tooLarge") {
            throw SyncServerError.tooLarge(limit: SyncWire.maxPushBytes)
        } catch {
            // The HTTP parser's own complaint (a broken chunk, a body cut short): the client's fault.
            throw SyncServerError.malformed(field: "body", message: "The body could not be read: \(String("\(error)".prefix(120)))")
        }
        do {
            return try SyncWire.decoder().decode(T.self, from: Data(buffer.readableBytesView))
        } catch let DecodingError.keyNotFound(key, context) {
            throw SyncServerError.malformed(field: Self.path(context.codingPath + [key]), message: "is required")
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context), let DecodingError.dataCorrupted(
            context)
        {
            let field = Self.path(context.codingPath)
            throw SyncServerError.malformed(field: field.isEmpty ? "body" : field, message: String(context.debugDescription.prefix(200)))
        } catch {
            throw SyncServerError.malformed(field: "body", message: "Not valid JSON")
        }
    }
}

public struct SyncJSONEncoder: ResponseEncoder {
    public func encode(_ value: some Encodable, from request: Request, context: some RequestContext) throws -> Response {
        let data = try SyncWire.encoder().encode(value)
        return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// Every error becomes an RFC 9457 problem; nothing internal leaks.
struct SyncProblemMiddleware: RouterMiddleware {
    typealias Context = SyncRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > SyncWire.maxPushBytes {
            return Self.response(SyncProblem(.tooLarge(limit: SyncWire.maxPushBytes)))
        }
        do {
            return try await next(request, context)
        } catch let error as SyncServerError {
            return Self.response(SyncProblem(error))
        } catch let error as HTTPError where error.status == .notFound {
            return Self.response(SyncProblem(.notFound("such route")))
        } catch let error as HTTPError {
            return Self.response(
                SyncProblem(
                    type: "about:blank", title: error.status.reasonPhrase, status: error.status.code,
                    detail: error.body ?? error.status.reasonPhrase))
        } catch {
            context.logger.error("Sync request failed", metadata: ["path": "\(request.uri.path)", "error": "\(error)"])
            return Self.response(
                SyncProblem(type: "about:blank", title: "Internal Server Error", status: 500, detail: "The server could not do this"))
        }
    }

    static func response(_ problem: SyncProblem) -> Response {
        let data = (try? SyncWire.encoder().encode(problem)) ?? Data()
        var headers: HTTPFields = [.contentType: "application/problem+json"]
        if let seconds = problem.retryAfter { headers[.retryAfter] = String(seconds) }
        return Response(status: .init(code: problem.status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// `/sync/v1`: devices, push, pull, events (SYNC.md "Wire").
struct SyncController {
    let service: SyncService

    func addRoutes(to group: RouterGroup<SyncRequestContext>) {
        group.post("devices", use: register)
        group.post("devices/fork", use: fork)
        group.get("devices", use: devices)
        group.delete("devices/:id", use: revoke)
        group.get("status", use: status)
        group.post("push", use: push)
        group.get("pull", use: pull)
        group.get("events", use: events)
    }

    private func caller(_ request: Request) async throws -> SyncService.Caller {
        try await service.authenticate(token: try Self.token(request))
    }

    /// The caller of a push or a pull: the store refuses a revoked device in the same statement.
    private func syncCaller(_ request: Request) async throws -> SyncService.Caller {
        try await service.authenticateForSync(token: try Self.token(request))
    }

    /// The client's address for throttling: the socket's, or — behind a proxy on this machine (nginx in
    /// `deploy/`), whose socket address is everyone's — the last `X-Forwarded-For` entry, the one that
    /// proxy saw. A client's own `X-Forwarded-For` is believed only through such a proxy.
    static func clientAddress(_ request: Request, _ context: SyncRequestContext) -> String? {
        guard let peer = context.remoteAddress, peer == "127.0.0.1" || peer == "::1",
            let header = request.headers.last(where: { $0.name.canonicalName == "x-forwarded-for" })?.value,
            let last = header.split(separator: ",").last?.trimmingCharacters(in: .whitespaces), !last.isEmpty, last.count <= 45
        else { return context.remoteAddress }
        return last
    }

    private static func token(_ request: Request) throws -> String {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else { throw SyncServerError.unauthorized }
        return String(header.dropFirst("Bearer ".count))
    }

    @Sendable func register(_ request: Request, context: SyncRequestContext) async throws -> EditedResponse<DeviceCredentials> {
        let registration = try await request.decode(as: DeviceRegistration.self, context: context)
        return EditedResponse(
            status: .created, response: try await service.register(registration, address: Self.clientAddress(request, context)))
    }

    @Sendable func fork(_ request: Request, context: SyncRequestContext) async throws -> EditedResponse<DeviceCredentials> {
        EditedResponse(status: .created, response: try await service.fork(try await caller(request)))
    }

    @Sendable func devices(_ request: Request, context: SyncRequestContext) async throws -> [DeviceInfo] {
        try await service.devices(try await caller(request))
    }

    @Sendable func revoke(_ request: Request, context: SyncRequestContext) async throws -> Response {
        let caller = try await caller(request)
        guard let text = context.parameters.get("id"), let id = UUID(uuidString: text) else {
            throw SyncServerError.invalid(field: "id", message: "A device id is a UUID")
        }
        try await service.revoke(caller, device: id)
        return Response(status: .noContent)
    }

    @Sendable func status(_ request: Request, context: SyncRequestContext) async throws -> ServerStatus {
        try await service.status(try await caller(request))
    }

    @Sendable func push(_ request: Request, context: SyncRequestContext) async throws -> PushResponse {
        let caller = try await syncCaller(request)
        return try await service.push(caller, try await request.decode(as: PushRequest.self, context: context))
    }

    @Sendable func pull(_ request: Request, context: SyncRequestContext) async throws -> PullResponse {
        let caller = try await syncCaller(request)
        let query = request.uri.queryParameters
        func number(_ name: String, default value: Int64) throws -> Int64 {
            guard let text = query[name[...]] else { return value }
            guard let number = Int64(String(text)) else { throw SyncServerError.invalid(field: name, message: "\(name) is a whole number") }
            return number
        }
        let cursor = try number("cursor", default: 0)
        let limit = try number("limit", default: Int64(SyncWire.defaultPullLimit))
        guard (1...Int64(SyncWire.maxPullLimit)).contains(limit) else {
            throw SyncServerError.invalid(field: "limit", message: "limit is 1 to \(SyncWire.maxPullLimit)")
        }
        let full = query["full"].map { $0 == "true" || $0 == "1" } ?? false
        return try await service.pull(caller, cursor: cursor, limit: Int(limit), checksum: query["checksum"].map(String.init), full: full)
    }

    /// Server-sent events: `poke` with the user's new head after every push that changed something,
    /// and a comment every 15 s so that proxies keep the stream open.
    @Sendable func events(_ request: Request, context: SyncRequestContext) async throws -> Response {
        let caller = try await caller(request)
        let pokes = await service.pokes.subscribe(user: caller.user.id, device: caller.device.id)
        let token = try Self.token(request)
        let head = try await service.store.head(userId: caller.user.id).head
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-cache", .init("X-Accel-Buffering")!: "no"],
            body: ResponseBody { writer in
                service.metrics.streams.increment()
                defer { service.metrics.streams.decrement() }
                try await writer.write(ByteBuffer(string: "retry: 1000\nevent: poke\ndata: {\"head\":\(head)}\n\n"))
                let (events, continuation) = AsyncStream<Int64?>.makeStream()
                let forward = Task {
                    for await head in pokes { continuation.yield(head) }
                    continuation.finish()
                }
                let keepAlive = Task {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: .seconds(15))
                        // A device revoked through another instance: its stream ends within one beat.
                        if (try? await service.authenticate(token: token)) == nil { continuation.finish(); return }
                        continuation.yield(nil)
                    }
                }
                defer {
                    forward.cancel()
                    keepAlive.cancel()
                }
                try await withGracefulShutdownHandler {
                    for await event in events {
                        try await writer.write(
                            ByteBuffer(string: event.map { "event: poke\ndata: {\"head\":\($0)}\n\n" } ?? ": keep-alive\n\n"))
                    }
                } onGracefulShutdown: {
                    continuation.finish()
                }
                try await writer.finish(nil)
            })
    }
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
    public init(host: String = "127.0.0.1", port: Int = 8090, idleTimeout: Duration = .seconds(30), maxConnections: Int = 4096) {
        self.host = host
        self.port = port
        self.idleTimeout = idleTimeout
        self.maxConnections = maxConnections
    }
}

/// The router of the sync server (tests drive it in-process).
public func buildSyncRouter(service: SyncService) -> Router<SyncRequestContext> {
    let router = Router(context: SyncRequestContext.self)
    router.add(middleware: SyncProblemMiddleware())
    SyncController(service: service).addRoutes(to: router.group("sync/v1"))
    // Liveness: the process answers. Readiness: its database does too (a load balancer stops sending
    // requests to an instance that cannot reach it).
    router.get("healthz") { _, _ in "ok" }
    router.get("readyz") { _, _ -> Response in
        do {
            try await service.store.checkReady()
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "ready")))
        } catch {
            return SyncProblemMiddleware.response(
                SyncProblem(
                    type: "about:blank", title: "Service Unavailable", status: 503,
                    detail: "The sync database does not answer"))
        }
    }
    router.get("metrics") { _, _ in
        Response(
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
    logger: Logger = Logger(label: "grove.sync-server")
) -> some ApplicationProtocol {
    let idle = configuration.idleTimeout.components
    var application = Application(
        router: buildSyncRouter(service: service),
        server: .http1(configuration: .init(idleTimeout: .seconds(idle.seconds))),
        configuration: .init(
            address: .hostname(configuration.host, port: configuration.port), serverName: "Grove Sync",
            availableConnectionsDelegate: MaximumAvailableConnections(configuration.maxConnections)),
        services: services + [TombstonePruning(service: service, logger: logger)],
        logger: logger)
    for process in beforeStart { application.beforeServerStarts(perform: process) }
    return application
}

/// Drops old deletions once an hour (and at start), so that the server does not keep every delete forever.
struct TombstonePruning: Service {
    let service: SyncService
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    let removed = try await service.pruneTombstones()
                    if removed > 0 { logger.info("Pruned deletions", metadata: ["count": "\(removed)"]) }
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
