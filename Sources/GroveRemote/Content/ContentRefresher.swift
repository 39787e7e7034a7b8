import AsyncHTTPClient
import Foundation
import GroveCore
import GroveStore
import Logging
import NIOCore
import NIOFoundationCompat

/// Fetches content packs from their sources (seed 003's read-only content sync): conditional GETs
/// with the last `ETag`, a day's freshness, the whole pack checked before any of it is applied.
/// Whatever goes wrong, the pack in use (or the bundled one) stays and the failure is recorded on
/// the source. `grove content source refresh` and the server's background refresh share it.
public struct ContentRefresher: Sendable {
    /// What one source's check came to.
    public enum Result: Sendable, Equatable {
        /// A new pack was applied.
        case updated(ContentPackReport)
        /// `304 Not Modified`: the pack in use is current.
        case unchanged
        /// Nothing changed; the message says why (offline, an HTTP status, a refused pack).
        case failed(String)
    }

    /// One source and its result.
    public struct Outcome: Sendable, Equatable {
        public var url: String
        public var result: Result
    }

    /// How a fetch is bounded: its client's connection and read bounds, and a deadline for the whole.
    public struct Bounds: Sendable {
        public var client: HTTPClient
        public var timeout: TimeAmount

        /// What a person's Grove uses: a source that hangs fails within 15 s.
        public static let standard = Bounds(client: ContentRefresher.client, timeout: .seconds(15))
        /// What a person's Grove gives the assistant's model: a whole answer within 30 s.
        public static let assistant = Bounds(client: ContentRefresher.client, timeout: .seconds(30))
        /// Bounds a loaded test machine never reaches (its sources answer; only the load is slow).
        public static let patient = Bounds(client: makeClient(connect: .seconds(120), read: .seconds(120)), timeout: .seconds(120))
    }

    private let database: AppDatabase
    private let client: HTTPClient
    private let timeout: TimeAmount
    private let logger: Logger

    /// A refresher whose fetches are bounded by `bounds`.
    public init(database: AppDatabase, bounds: Bounds) {
        self.init(database: database, client: bounds.client, timeout: bounds.timeout)
    }

    /// `client` defaults to one client for the process's content checks (never shut down, like
    /// `HTTPClient.shared`); `timeout` bounds a whole fetch, body included.
    /// `logger`: the server logs each source's result; a command prints it instead and passes a quieter one.
    public init(
        database: AppDatabase, client: HTTPClient = ContentRefresher.client, timeout: TimeAmount = .seconds(15),
        logger: Logger = Logger(label: "grove.content")
    ) {
        self.database = database
        self.logger = logger
        self.client = client
        self.timeout = timeout
    }

    /// A source that refuses the connection fails at once rather than being retried until the
    /// deadline (the shared client's choice): the next check is an hour away anyway, and a person
    /// waiting on `grove content source add` should hear "offline" in a moment.
    public static let client = makeClient()

    /// A client configured as `client` is, with its own connection and read bounds (a test on a
    /// loaded machine gives ones it never reaches, and bounds the fetch by `timeout` alone).
    public static func makeClient(connect: TimeAmount = .seconds(5), read: TimeAmount = .seconds(15)) -> HTTPClient {
        var configuration = HTTPClient.Configuration(
            // Redirects are followed by `fetch`, which checks where each one leads (`SourceAddressPolicy`).
            redirectConfiguration: .disallow,
            timeout: .init(connect: connect, read: read),
            decompression: .enabled(limit: .size(ContentPack.maxBytes)))
        configuration.connectionPool.retryConnectionEstablishment = false
        // SSL_CERT_FILE as for sync; an unreadable one keeps the system's authorities here (a background
        // fetch has nobody to tell), while `grove sync` refuses it in words.
        configuration = (try? TrustedCertificates.clientConfiguration(configuration)) ?? configuration
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }

    /// Checks the sources that are due (`force`: every source, ignoring the day's freshness), one
    /// after another.
    public func refresh(force: Bool = false) async throws -> [Outcome] {
        let sources = try await database.run { force ? try $0.content.sources() : try $0.content.sourcesDue() }
        var outcomes: [Outcome] = []
        for source in sources { outcomes.append(await refresh(source)) }
        return outcomes
    }

    /// Checks one source now, whatever its freshness.
    /// Adds the source at `url` and fetches its pack at once, keeping it only when that fetch gave a
    /// pack: a source that cannot be reached or read now is not kept to be retried every hour; the
    /// refusal names `url` and says why. The one operation behind `grove content source add` and
    /// `POST /pause/content-sources`.
    public func add(url: String) async throws -> Outcome {
        let source = try await database.run { try $0.content.addSource(url: url) }
        let outcome = await refresh(source)
        if case .failed(let message) = outcome.result {
            _ = try await database.run { try $0.content.removeSource(url: source.url) }
            throw InvalidField("url", "Not added: \(message)")
        }
        return outcome
    }

    public func refresh(url: String) async throws -> Outcome {
        guard let source = try await database.run({ try $0.content.source(url: url) }) else {
            throw PauseValidationError.unknownContentSource(url)
        }
        return await refresh(source)
    }

    private func refresh(_ source: ContentSource) async -> Outcome {
        let result: Result
        do {
            result = try await fetch(source)
        } catch {
            result = .failed(Self.describe(error))
        }
        do {
            switch result {
            case .updated(let report):
                logger.info(
                    "Content pack applied",
                    metadata: [
                        "url": "\(source.url)", "added": "\(report.added)", "updated": "\(report.updated)",
                        "skipped": "\(report.skipped.count)",
                    ])
                for skipped in report.skipped {
                    logger.warning("Content item skipped", metadata: ["url": "\(source.url)", "item": "\(skipped.description)"])
                }
            case .unchanged:
                try await database.run { try $0.content.markUnchanged(url: source.url) }
            case .failed(let message):
                logger.warning("Content source failed", metadata: ["url": "\(source.url)", "error": "\(message)"])
                try await database.run { try $0.content.recordFailure(url: source.url, message: message) }
            }
        } catch {
            // The source was removed meanwhile, or the store refused the write: nothing to keep.
            return Outcome(url: source.url, result: .failed(Self.describe(error)))
        }
        return Outcome(url: source.url, result: result)
    }

    /// The most redirects a fetch follows.
    static let maxRedirects = 5

    /// One fetch, bounded as a whole by `timeout` (connection, redirects and body together: a server
    /// that sends a byte at a time holds nothing longer).
    private func fetch(_ source: ContentSource) async throws -> Result {
        do {
            return try await Deadline.run(within: timeout) { try await self.fetchFollowingRedirects(source) }
        } catch let exceeded as Deadline.Exceeded {
            return .failed("The source did not send its pack within \(exceeded.seconds) s")
        }
    }

    private func fetchFollowingRedirects(_ source: ContentSource) async throws -> Result {
        let policy = SourceAddressPolicy(sourceURL: source.url)
        var address = source.url
        var hops = 0
        while true {
            guard let url = URL(string: address), url.scheme == "http" || url.scheme == "https" else {
                return .failed("The source redirected to an address that is not http(s)")
            }
            do { try policy.check(url) } catch let refusal as SourceAddressPolicy.Refusal { return .failed(refusal.message) }
            let response = try await client.execute(request(address, source: source, first: hops == 0), timeout: timeout)
            guard [301, 302, 303, 307, 308].contains(response.status.code) else { return try await take(response, from: source) }
            _ = try? await response.body.collect(upTo: 64 << 10)
            hops += 1
            guard hops <= Self.maxRedirects, let location = response.headers.first(name: "Location"),
                let next = URL(string: location, relativeTo: url)?.absoluteURL.absoluteString
            else { return .failed("The source redirected too often, or without saying where") }
            address = next
        }
    }

    private func request(_ address: String, source: ContentSource, first: Bool) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: address)
        request.headers.add(name: "Accept", value: "application/json")
        request.headers.add(name: "User-Agent", value: GroveVersion.userAgent)
        // Only a pack still in the library can be "not modified".
        if first, let etag = source.etag, source.itemCount > 0 { request.headers.add(name: "If-None-Match", value: etag) }
        return request
    }

    private func take(_ response: HTTPClientResponse, from source: ContentSource) async throws -> Result {
        switch response.status.code {
        case 304:
            return .unchanged
        case 200:
            let body = try await response.body.collect(upTo: ContentPack.maxBytes)
            let pack: ContentPack
            do { pack = try ContentPack.parse(Data(buffer: body)) } catch { return .failed(error.message) }
            let etag = response.headers.first(name: "ETag")
            let report = try await database.run { try $0.content.apply(pack, from: source.url, etag: etag) }
            return .updated(report)
        default:
            // Drain a little of the body so the connection can be reused; its content is not ours to show.
            _ = try? await response.body.collect(upTo: 64 << 10)
            return .failed("The source answered HTTP \(response.status.code) \(response.status.reasonPhrase)")
        }
    }

    /// A sentence for the source's `lastError`.
    static func describe(_ error: any Error) -> String {
        switch error {
        case let error as any GroveValidationError: return error.message
        case is NIOTooManyBytesError: return "The pack is larger than \(ContentPack.maxBytes >> 20) MiB"
        case let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout:
            return "The source did not answer in time"
        default:
            // NIO's errors describe sockets, not situations: name the few a person can act on.
            let text = String(describing: error)
            if text.contains("Connection refused") {
                return "Could not reach the source: the connection was refused (offline, or nothing serves there)"
            }
            if text.contains("UnknownHost") || text.contains("DNS error") || text.contains("dnsA") {
                return "Could not reach the source: its host name did not resolve (offline?)"
            }
            return "Could not reach the source (\(text.prefix(300)))"
        }
    }
}
