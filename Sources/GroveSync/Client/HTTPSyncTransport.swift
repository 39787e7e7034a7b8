import AsyncHTTPClient
import Foundation
import GroveCore
import GroveRemote
import GroveStore
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

/// The sync client over HTTP (AsyncHTTPClient).
public struct HTTPSyncTransport: SyncTransport {
    public let baseURL: String
    public let token: String?
    let client: HTTPClient
    let timeout: TimeAmount
    let sleep: @Sendable (Duration) async throws -> Void

    /// How long one request may take: 30 s, or `GROVE_SYNC_TIMEOUT` seconds (1 to 3600) — a test
    /// suite on a loaded machine, or a very slow link, gives more.
    public static var requestTimeout: TimeAmount {
        let seconds = ProcessInfo.processInfo.environment["GROVE_SYNC_TIMEOUT"].flatMap(Int64.init) ?? 30
        return .seconds(min(max(seconds, 1), 3600))
    }

    /// `baseURL` is the server's address (`http://host:8090`); `token` the device's, once registered;
    /// `sleep` waits out a server's `retryAfter` (a test passes one that only records it).
    public init(
        baseURL: String, token: String?, client: HTTPClient, timeout: TimeAmount = HTTPSyncTransport.requestTimeout,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.token = token
        self.client = client
        self.timeout = timeout
        self.sleep = sleep
    }

    /// One client for the process: connections kept alive between pushes and pulls; a server that
    /// refuses the connection fails the attempt at once (the sync loop has its own back-off) instead
    /// of being retried until the deadline. It trusts the system's authorities (or `SSL_CERT_FILE`'s).
    public static var sharedClient: HTTPClient {
        get throws { try client(caFile: nil) }
    }

    /// The process's client trusting `caFile` besides the usual authorities (one per file, kept).
    public static func client(caFile: String?) throws -> HTTPClient {
        try clients.withLockedValue { clients in
            if let client = clients[caFile] { return client }
            var configuration = HTTPClient.Configuration()
            configuration.timeout = .init(connect: .seconds(5), read: .seconds(60))
            configuration.connectionPool.retryConnectionEstablishment = false
            configuration = try TrustedCertificates.clientConfiguration(configuration, caFile: caFile)
            let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
            clients[caFile] = client
            return client
        }
    }

    private static let clients = NIOLockedValueBox([String?: HTTPClient]())

    /// Checks a server address: http or https, a host, no query.
    public static func validate(_ url: String) throws -> String {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            ["http", "https"].contains(scheme),
            let host = components.host, !host.isEmpty, components.query == nil, components.fragment == nil
        else { throw InvalidField("URL", "The server address is http(s)://HOST[:PORT], for example http://127.0.0.1:8090") }
        return url.hasSuffix("/") ? String(url.dropLast()) : url
    }

    public func register(_ registration: DeviceRegistration) async throws -> DeviceCredentials {
        // The server checks one login per address at a time: a second one sent alongside (two devices
        // behind one router) is told to retry in a second or two, and is, a few times.
        var attempt = 1
        while true {
            do {
                return try await send(.POST, "/sync/v1/devices", body: registration, authenticated: false, idempotent: false)
            } catch let problem as SyncProblem
                where problem.status == 429 && attempt < 5 && (problem.retryAfter ?? 1) <= Self.longestLoginWait
            {
                attempt += 1
                try await sleep(.seconds(problem.retryAfter ?? 1))
            }
        }
    }

    /// The longest `retryAfter` a login waits out by itself (longer ones are said to the person).
    static let longestLoginWait = 2

    public func status() async throws -> ServerStatus { try await send(.GET, "/sync/v1/status", body: Optional<Int>.none) }

    /// A push is idempotent: the server keeps each mutation once by its device and number (SYNC.md).
    public func push(_ request: PushRequest) async throws -> PushResponse {
        try await send(.POST, "/sync/v1/push", body: request, idempotent: true)
    }

    public func pull(cursor: Int64, limit: Int, checksum: String, full: Bool) async throws -> PullResponse {
        let escaped = checksum.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        return try await send(
            .GET, "/sync/v1/pull?cursor=\(cursor)&limit=\(limit)&checksum=\(escaped)\(full ? "&full=true" : "")", body: Optional<Int>.none)
    }

    public func fork() async throws -> DeviceCredentials {
        try await send(.POST, "/sync/v1/devices/fork", body: Optional<Int>.none, idempotent: false)
    }

    /// Idempotent: a device taken back already is answered as taken back.
    public func reclaim(_ request: DeviceReclaim) async throws {
        let _: Empty = try await send(.POST, "/sync/v1/devices/reclaim", body: request, idempotent: true)
    }

    public func snapshot(asOf: Date, after: EntityKey?, limit: Int) async throws -> SnapshotPage {
        let escape = { (text: String) in text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "" }
        var path = "/sync/v1/snapshot?asOf=\(escape(GroveExport.formatInstant(asOf)))&limit=\(limit)"
        if let after { path += "&afterEntity=\(escape(after.entity))&afterId=\(escape(after.id))" }
        return try await send(.GET, path, body: Optional<Int>.none)
    }

    /// How `user` derives its login from the passphrase, before any token (nil: it logs in with a password).
    public func prelogin(user: String) async throws -> KeyEnvelope.Derivation? {
        let answer: PreloginResponse = try await send(.POST, "/sync/v1/prelogin", body: PreloginRequest(user: user), authenticated: false)
        return answer.derivation
    }

    /// The account's key envelope, or nil when the account is not encrypted.
    public func keys() async throws -> KeyEnvelope? {
        do {
            return try await send(.GET, "/sync/v1/keys", body: Optional<Int>.none)
        } catch let problem as SyncProblem where problem.slug == "not-encrypted" {
            return nil
        }
    }

    /// The rows of this encrypted account the server still keeps in plain; nil from a server too old
    /// to say (the device then sends everything again).
    public func plainRows() async throws -> PlainRows? {
        do {
            return try await send(.GET, "/sync/v1/plain", body: Optional<Int>.none)
        } catch let problem as SyncProblem where problem.status == 404 {
            return nil
        }
    }

    /// Encrypts the account, or re-wraps its key after a passphrase change.
    public func setKeys(_ change: KeyEnvelopeChange) async throws {
        let _: Empty = try await send(.PUT, "/sync/v1/keys", body: change, idempotent: true)
    }

    public func devices() async throws -> [DeviceInfo] { try await send(.GET, "/sync/v1/devices", body: Optional<Int>.none) }

    public func revoke(_ id: UUID) async throws {
        let _: Empty = try await send(.DELETE, "/sync/v1/devices/\(id.uuidString)", body: Optional<Int>.none, idempotent: false)
    }

    private struct Empty: Decodable {}

    private func request(_ method: HTTPMethod, _ path: String, authenticated: Bool = true) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = method
        request.headers.add(name: "Accept", value: "application/json")
        request.headers.add(name: "User-Agent", value: GroveVersion.userAgent)
        if authenticated, let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        return request
    }

    /// One request and its answer. A kept-alive connection the server or a proxy closed while it lay
    /// idle fails the next request on it before any answer: an idempotent request (a GET, a push) is
    /// sent once more on a new connection, and any request that never left (`ioOnClosedChannel`).
    private func send<Body: Encodable, Answer: Decodable>(
        _ method: HTTPMethod, _ path: String, body: Body?,
        authenticated: Bool = true, idempotent: Bool? = nil
    ) async throws -> Answer {
        var request = request(method, path, authenticated: authenticated)
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try SyncWire.encoder().encode(body)))
        }
        let response = try await execute(request, timeout: timeout, idempotent: idempotent ?? (method == .GET))
        let data = Data(buffer: try await response.body.collect(upTo: 64 << 20))
        guard (200..<300).contains(response.status.code) else {
            if let problem = try? SyncWire.decoder().decode(SyncProblem.self, from: data) { throw problem }
            throw SyncProblem(
                type: "about:blank", title: response.status.reasonPhrase, status: Int(response.status.code),
                detail: "The server answered \(response.status.code) \(response.status.reasonPhrase)")
        }
        if Answer.self == Empty.self, let empty = Empty() as? Answer { return empty }
        return try SyncWire.decoder().decode(Answer.self, from: data)
    }

    /// Sends `request`, once more on a new connection when the first met one already closed and
    /// sending again is safe (`StaleConnection`).
    private func execute(_ request: HTTPClientRequest, timeout: TimeAmount, idempotent: Bool) async throws -> HTTPClientResponse {
        do {
            return try await client.execute(request, timeout: timeout)
        } catch let error where StaleConnection.retries(error, idempotent: idempotent) {
            return try await client.execute(request, timeout: timeout)
        }
    }

    /// The server's pokes: each new head, as the events stream announces it, until it closes.
    public func pokes() async throws -> AsyncThrowingStream<Int64, any Error> {
        let response = try await execute(request(.GET, "/sync/v1/events"), timeout: .hours(24 * 365), idempotent: true)
        guard response.status == .ok else {
            let data = Data(buffer: try await response.body.collect(upTo: 1 << 20))
            throw (try? SyncWire.decoder().decode(SyncProblem.self, from: data))
                ?? SyncProblem(type: "about:blank", title: "Events", status: Int(response.status.code), detail: "No event stream")
        }
        return AsyncThrowingStream { continuation in
            let task = Task {
                var reader = ServerSentEvents()
                do {
                    for try await chunk in response.body {
                        for event in reader.feed(chunk.readableBytesView) where event.name == "poke" {
                            if let head = ServerSentEvents.head(event.data) { continuation.yield(head) }
                        }
                    }
                    continuation.finish()
                } catch { continuation.finish(throwing: error) }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

extension Data {
    init(buffer: ByteBuffer) { self.init(buffer.readableBytesView) }
}
