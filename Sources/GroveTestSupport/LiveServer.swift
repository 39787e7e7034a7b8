import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import ServiceLifecycle

/// A response read by `LiveClient`.
public struct LiveResponse: Sendable {
    public let status: HTTPResponse.Status
    public let headers: HTTPFields
    public let body: ByteBuffer
}

/// The client of a server `withLiveServer` runs: one keep-alive connection, like HummingbirdTesting's.
public struct LiveClient: Sendable {
    let client: TestClient
    /// The port the server listens on (127.0.0.1).
    public let port: Int

    /// Sends one request and hands its response to `check`.
    @discardableResult
    public func execute<Return>(
        uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer? = nil,
        _ check: (LiveResponse) throws -> Return
    ) async throws -> Return {
        var headers = headers
        headers[.connection] = "keep-alive"
        let response = try await client.execute(
            TestClient.Request(uri, method: method, authority: "localhost", headers: headers, body: body))
        return try check(
            LiveResponse(status: response.head.status, headers: response.head.headerFields, body: response.body ?? ByteBuffer()))
    }
}

/// Serves `router` on a real socket (127.0.0.1, a free port) for the length of `body`.
///
/// HummingbirdTesting's `.live` gives its client a fixed 20 s read timeout, which a loaded machine
/// passes: a request waits for one of Swift's two cooperative threads while other tests hold them.
/// Here a request waits as long as it takes, and the suite's `.timeLimit` bounds the test instead.
public func withLiveServer<Builder: HTTPResponderBuilder, Value: Sendable>(
    _ router: Builder, _ body: @Sendable (LiveClient) async throws -> Value
) async throws -> Value where Builder.Responder.Context: InitializableFromSource<ApplicationRequestContextSource> {
    let (ports, listening) = AsyncStream<Int>.makeStream()
    let app = Application(
        router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
        onServerRunning: { channel in
            listening.yield(channel.localAddress?.port ?? 0)
            listening.finish()
        }, logger: Logger(label: "grove.test.live"))
    return try await withThrowingTaskGroup(of: Void.self) { group in
        let services = ServiceGroup(configuration: .init(services: [app], logger: app.logger))
        group.addTask { try await services.run() }
        var iterator = ports.makeAsyncIterator()
        let port = await iterator.next() ?? 0
        let client = TestClient(host: "localhost", port: port, configuration: .init(timeout: .seconds(3600)))
        client.connect()
        do {
            let value = try await body(LiveClient(client: client, port: port))
            try await client.shutdown()
            await services.triggerGracefulShutdown()
            return value
        } catch {
            try? await client.shutdown()
            await services.triggerGracefulShutdown()
            throw error
        }
    }
}
