import Foundation
import GroveCore
import GroveStore
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle

/// `/sync/v1`: devices, push, pull, events (SYNC.md "Wire").
struct SyncController {
    let service: SyncService
    let access: SyncServerAccess

    func addRoutes(to group: RouterGroup<SyncRequestContext>) {
        group.post("devices", use: register)
        group.post("prelogin", use: prelogin)
        group.post("devices/fork", use: fork)
        group.post("devices/reclaim", use: reclaim)
        group.get("devices", use: devices)
        group.delete("devices/:id", use: revoke)
        group.get("status", use: status)
        group.get("keys", use: keys)
        group.get("plain", use: plainRows)
        group.put("keys", use: setKeys)
        group.post("push", use: push)
        group.get("pull", use: pull)
        group.get("snapshot", use: snapshot)
        group.get("events", use: events)
    }

    private func caller(_ request: Request) async throws -> SyncService.Caller {
        try await service.authenticate(token: try Self.token(request))
    }

    /// The caller of a push or a pull: the store refuses a revoked device in the same statement.
    private func syncCaller(_ request: Request) async throws -> SyncService.Caller {
        try await service.authenticateForSync(token: try Self.token(request))
    }

    private static func token(_ request: Request) throws -> String {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else { throw SyncServerError.unauthorized }
        return String(header.dropFirst("Bearer ".count))
    }

    @Sendable func register(_ request: Request, context: SyncRequestContext) async throws -> EditedResponse<DeviceCredentials> {
        let registration = try await request.decode(as: DeviceRegistration.self, context: context)
        return EditedResponse(
            status: .created, response: try await service.register(registration, address: access.clientAddress(request, context)))
    }

    /// Before a login: how this account derives its login from the passphrase (no token yet).
    @Sendable func prelogin(_ request: Request, context: SyncRequestContext) async throws -> PreloginResponse {
        try await service.prelogin(try await request.decode(as: PreloginRequest.self, context: context))
    }

    @Sendable func fork(_ request: Request, context: SyncRequestContext) async throws -> EditedResponse<DeviceCredentials> {
        EditedResponse(status: .created, response: try await service.fork(try await caller(request)))
    }

    /// A device a server restored from an older backup has no row for, showing the token it was given.
    @Sendable func reclaim(_ request: Request, context: SyncRequestContext) async throws -> Response {
        let token = try Self.token(request)
        try await service.reclaim(token: token, try await request.decode(as: DeviceReclaim.self, context: context))
        return Response(status: .noContent)
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

    @Sendable func keys(_ request: Request, context: SyncRequestContext) async throws -> KeyEnvelope {
        try await service.keys(try await caller(request))
    }

    @Sendable func setKeys(_ request: Request, context: SyncRequestContext) async throws -> Response {
        let caller = try await caller(request)
        try await service.setKeys(caller, try await request.decode(as: KeyEnvelopeChange.self, context: context))
        return Response(status: .noContent)
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

    /// The rows of an encrypted account still kept in plain (`notEncrypted` for a plain account).
    @Sendable func plainRows(_ request: Request, context: SyncRequestContext) async throws -> PlainRows {
        try await service.plainRows(try await caller(request))
    }

    /// A restore point: the account as it stood at `asOf` (ISO 8601), a page at a time.
    @Sendable func snapshot(_ request: Request, context: SyncRequestContext) async throws -> SnapshotPage {
        let caller = try await caller(request)
        let query = request.uri.queryParameters
        guard let text = query["asOf"], let asOf = GroveExport.parseInstant(String(text)) else {
            throw SyncServerError.invalid(field: "asOf", message: "asOf is an instant like 2026-11-24T09:00:00Z")
        }
        let limit = try query["limit"].map {
            guard let number = Int(String($0)) else { throw SyncServerError.invalid(field: "limit", message: "limit is a whole number") }
            return number
        }
        let after = query["afterEntity"].map { EntityKey(entity: String($0), id: query["afterId"].map(String.init) ?? "") }
        return try await service.snapshot(caller, asOf: asOf, after: after, limit: limit ?? SnapshotPage.defaultLimit)
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
