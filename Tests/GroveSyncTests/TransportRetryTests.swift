import AsyncHTTPClient
import Foundation
import GroveCore
import GroveTestSupport
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import Testing

@testable import GroveSync

@Suite("What the sync client sends again by itself, and what it never does", .timeLimit(.minutes(5)))
struct TransportRetryTests {
    @Test("a login told to wait a second is sent again after it, a few times at most")
    func loginWaitsOutABusyGate() async throws {
        let logins = NIOLockedValueBox(0)
        let router = Router()
        router.post("sync/v1/devices") { _, _ -> Response in
            let number = logins.withLockedValue {
                $0 += 1; return $0
            }
            guard number > 2 else { return Self.problem(429, retryAfter: 1) }
            let credentials = #"{"deviceId":"\#(UUID().uuidString)","token":"t"}"#
            return Response(
                status: .created, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: credentials)))
        }
        let sleeps = NIOLockedValueBox([Duration]())
        try await withLiveServer(router) { client in
            let transport = HTTPSyncTransport(
                baseURL: "http://127.0.0.1:\(client.port)", token: nil, client: try HTTPSyncTransport.sharedClient,
                sleep: { duration in sleeps.withLockedValue { $0.append(duration) } })
            _ = try await transport.register(DeviceRegistration(user: "ada", password: "pw-123456", deviceName: "phone"))
        }
        #expect(logins.withLockedValue { $0 } == 3)
        #expect(sleeps.withLockedValue { $0 } == [.seconds(1), .seconds(1)])
    }

    @Test("a login told to wait long, or busy five times, is said to the person at once", arguments: [60, 1])
    func loginDoesNotWaitLong(retryAfter: Int) async throws {
        let logins = NIOLockedValueBox(0)
        let router = Router()
        router.post("sync/v1/devices") { _, _ -> Response in
            logins.withLockedValue { $0 += 1 }
            return Self.problem(429, retryAfter: retryAfter)
        }
        try await withLiveServer(router) { client in
            let transport = HTTPSyncTransport(
                baseURL: "http://127.0.0.1:\(client.port)", token: nil, client: try HTTPSyncTransport.sharedClient,
                sleep: { _ in })
            await #expect(throws: SyncProblem.self) {
                _ = try await transport.register(DeviceRegistration(user: "ada", password: "pw-123456", deviceName: "phone"))
            }
        }
        #expect(logins.withLockedValue { $0 } == (retryAfter == 1 ? 5 : 1))
    }

    @Test("a kept-alive connection closed under a GET: the GET goes again on a new one")
    func staleConnectionRetriesAGet() async throws {
        try await ClosingServer.run { (server, transport) async throws in
            #expect(try await transport.devices().isEmpty)
            // The second request meets the first connection, which the server closes on reading it.
            #expect(try await transport.devices().isEmpty)
            #expect(server.requests == ["GET /sync/v1/devices", "GET /sync/v1/devices", "GET /sync/v1/devices"])
            #expect(server.connections == 2)
        }
    }

    @Test("a kept-alive connection closed under a fork: not sent again (the server may have made it)")
    func staleConnectionNeverRepeatsAFork() async throws {
        try await ClosingServer.run { (server, transport) async throws in
            #expect(try await transport.devices().isEmpty)
            await #expect(throws: (any Error).self) { _ = try await transport.fork() }
            #expect(server.requests == ["GET /sync/v1/devices", "POST /sync/v1/devices/fork"])
        }
    }

    static func problem(_ status: Int, retryAfter: Int) -> Response {
        let body =
            #"{"type":"https://grove.invalid/problems/sync/too-many-attempts","title":"Too Many Attempts","status":\#(status),"detail":"busy","retryAfter":\#(retryAfter)}"#
        return Response(
            status: .init(code: status), headers: [.contentType: "application/problem+json"],
            body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}

/// An HTTP/1.1 server that answers the first request of each connection with `[]` (kept alive) and
/// closes the connection on reading any later one: an idle timeout that fires as a request arrives.
final class ClosingServer: Sendable {
    private let log = NIOLockedValueBox((requests: [String](), connections: 0))
    var requests: [String] { log.withLockedValue { $0.requests } }
    var connections: Int { log.withLockedValue { $0.connections } }

    static func run(_ body: (ClosingServer, HTTPSyncTransport) async throws -> Void) async throws {
        let server = ClosingServer()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                server.log.withLockedValue { $0.connections += 1 }
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(Handler(log: server.log))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup)
        do {
            let transport = HTTPSyncTransport(baseURL: "http://127.0.0.1:\(channel.localAddress?.port ?? 0)", token: "t", client: client)
            try await body(server, transport)
        } catch {
            try await client.shutdown()
            try await channel.close()
            throw error
        }
        try await client.shutdown()
        try await channel.close()
    }

    private final class Handler: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart
        let log: NIOLockedValueBox<(requests: [String], connections: Int)>
        var served = 0

        init(log: NIOLockedValueBox<(requests: [String], connections: Int)>) { self.log = log }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head): log.withLockedValue { $0.requests.append("\(head.method) \(head.uri)") }
            case .body: break
            case .end:
                served += 1
                guard served == 1 else { return context.close(promise: nil) }
                let body = ByteBuffer(string: "[]")
                let headers = HTTPHeaders([("Content-Type", "application/json"), ("Content-Length", "\(body.readableBytes)")])
                context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil)
                context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            }
        }
    }
}
