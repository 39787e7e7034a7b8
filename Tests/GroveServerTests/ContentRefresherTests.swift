import Foundation
import GroveCore
import GroveStore
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOConcurrencyHelpers
import Testing

@testable import GroveRemote
@testable import GroveServer

/// A content source on a real loopback port: what it serves can change between requests, and it
/// remembers what it was asked.
final class PackServer: Sendable {
    struct Served: Sendable { var status: HTTPResponse.Status = .ok; var body = ""; var etag: String? }
    private let state = NIOLockedValueBox((served: Served(), requests: [String?](), agents: [String?]()))

    func serve(_ served: Served) { state.withLockedValue { $0.served = served } }
    /// The `If-None-Match` of each request so far, in order.
    var requests: [String?] { state.withLockedValue { $0.requests } }
    /// The `User-Agent` of each request so far.
    var agents: [String?] { state.withLockedValue { $0.agents } }

    func application() -> some ApplicationProtocol {
        let router = Router()
        router.get("pack.json") { [state] request, _ -> Response in
            let asked = request.headers[.ifNoneMatch]
            let served = state.withLockedValue { s in
                s.requests.append(asked)
                s.agents.append(request.headers[.userAgent])
                return s.served
            }
            var headers: HTTPFields = [.contentType: "application/json"]
            if let etag = served.etag { headers[.eTag] = etag }
            if served.status == .ok, let etag = served.etag, asked == etag { return Response(status: .notModified, headers: headers) }
            return Response(status: served.status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: served.body)))
        }
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }
}

@Suite("Content packs over HTTP: a real server, a test clock")
struct ContentRefresherTests {
    /// The shared client's bounds (5 s to connect, 15 s between reads) are a loaded machine's to pass:
    /// the in-process server answers on the cooperative pool the other tests hold. The tests bound a
    /// fetch by the refresher's `timeout` alone, never reached (the slow source's test means to reach it).
    static let patient = ContentRefresher.Bounds.patient.client

    static let text = "Between stimulus and response there is a space; in that space is our power to choose a response."
    static func item(_ id: String, text: String = text) -> String {
        #"{"id":"\#(id)","type":"prompt","text":"\#(text)","category":"nature"}"#
    }
    static func pack(_ ids: [String]) -> String { #"{"format":1,"items":[\#(ids.map { item($0) }.joined(separator: ","))]}"# }

    func store() throws -> (AppDatabase, TestClock) {
        let clock = TestClock(Date(timeIntervalSince1970: 1_750_000_000))
        return (try AppDatabase.inMemory(environment: .test(clock: clock)), clock)
    }

    @Test func freshThenNotModifiedThenTheDayRuleThenABadPackKeepsTheGoodOne() async throws {
        let server = PackServer()
        server.serve(.init(body: Self.pack(["w-1", "w-2"]), etag: "\"v1\""))
        let (db, clock) = try store()
        try await server.application().test(.live) { client in
            let url = "http://127.0.0.1:\(try #require(client.port))/pack.json"
            try db.content.addSource(url: url)
            // A bound no loaded machine reaches.
            let refresher = ContentRefresher(database: db, bounds: .patient)

            // Fresh fetch: applied, validator kept, lastContentSync set.
            let first = try await refresher.refresh()
            guard case .updated(let report)? = first.first?.result else { Issue.record("\(first)"); return }
            #expect(report.added == 2)
            #expect(server.requests == [nil])
            #expect(try db.content.source(url: url)?.etag == "\"v1\"")
            #expect(try db.pause.preferences().lastContentSync == clock.now)

            // Within the day: nobody is asked.
            clock.advance(by: 3_600 * 23)
            #expect(try await refresher.refresh().isEmpty)
            #expect(server.requests.count == 1)

            // A day on: a conditional request, answered 304.
            clock.advance(by: 3_600)
            #expect(try await refresher.refresh().map(\.result) == [.unchanged])
            #expect(server.requests == [nil, "\"v1\""])
            #expect(server.agents == [GroveVersion.userAgent, GroveVersion.userAgent])
            #expect(try db.content.source(url: url)?.lastFetched == clock.now)
            #expect(try db.pause.preferences().lastContentSync == clock.now)

            // A broken pack is refused whole: the previous one stays, with its validator.
            server.serve(.init(body: #"{"format":1,"items":[{"id":"w-3""#, etag: "\"v2\""))
            let broken = try await refresher.refresh(force: true)
            guard case .failed(let message)? = broken.first?.result else { Issue.record("\(broken)"); return }
            #expect(message.hasPrefix("The pack is not JSON"))
            #expect(try db.content.all(category: .nature).filter { $0.source == url }.map(\.id) == ["w-1", "w-2"])
            let afterBroken = try #require(try db.content.source(url: url))
            #expect(afterBroken.etag == "\"v1\"" && afterBroken.lastError == message)

            // So is a pack whose every item breaks a rule, and an HTTP error.
            server.serve(.init(body: "[\(Self.item("w-9", text: "short"))]", etag: "\"v3\""))
            #expect(
                try await refresher.refresh(url: url).result
                    == .failed(
                        "None of the pack's 1 items can be used; first: item 0 (w-9): text: Content text must be 50-750 characters (got 5)")
            )
            server.serve(.init(status: .internalServerError, body: "oops"))
            #expect(try await refresher.refresh(url: url).result == .failed("The source answered HTTP 500 Internal Server Error"))
            #expect(try db.content.all(category: .nature).filter { $0.source == url }.count == 2)

            // A good pack with one bad item: the rest applies, the bad one is named.
            server.serve(
                .init(
                    body:
                        #"{"items":[\#(Self.item("w-2")),\#(Self.item("w-4")),{"id":"w-5","type":"poem","text":"\#(Self.text)","category":"nature"}]}"#,
                    etag: "\"v4\""))
            guard case .updated(let mixed) = try await refresher.refresh(url: url).result else { Issue.record("not applied"); return }
            #expect(mixed.added == 1 && mixed.updated == 1 && mixed.removed == 1)
            #expect(mixed.skipped.map(\.id) == ["w-5"] && mixed.skipped.first?.reason.hasPrefix("type: must be one of quote") == true)
            #expect(try db.content.source(url: url).map { ($0.etag, $0.itemCount, $0.lastError) } ?? (nil, 0, "") == ("\"v4\"", 2, nil))
        }
    }

    @Test func theServerRefreshesInTheBackgroundOnceADay() async throws {
        let server = PackServer()
        server.serve(.init(body: Self.pack(["bg-1"]), etag: "\"b\""))
        let (db, clock) = try store()
        let start = clock.now
        try await server.application().test(.live) { client in
            try db.content.addSource(url: "http://127.0.0.1:\(try #require(client.port))/pack.json")
            // Sleeps of 10 minutes move the store's clock: three simulated days pass in moments.
            let service = ContentRefreshService(
                refresher: ContentRefresher(database: db, bounds: .patient), clock: SimulatedClock(clock),
                interval: .seconds(600))
            let running = Task { try await service.run() }
            while clock.now < start.addingTimeInterval(3 * 86_400 + 1_200) { await Task.yield() }
            running.cancel()
            _ = try? await running.value
            // The first check fetches; each later day asks once, conditionally.
            #expect(server.requests == [nil, "\"b\"", "\"b\"", "\"b\""])
            #expect(try db.content.item(id: "bg-1") != nil)
        }
    }

    @Test func offlineLeavesTheBundledPackServingAndRetriesInAnHour() async throws {
        let server = PackServer()
        let port = try await server.application().test(.live) { client in try #require(client.port) }
        // The server is gone: its port now refuses connections.
        let (db, clock) = try store()
        let url = "http://127.0.0.1:\(port)/pack.json"
        try db.content.addSource(url: url)
        let outcome = try await ContentRefresher(database: db, client: Self.patient, timeout: .seconds(60)).refresh()
        guard case .failed(let message)? = outcome.first?.result else { Issue.record("\(outcome)"); return }
        #expect(message.hasPrefix("Could not reach the source"))
        #expect(try db.pause.preferences().lastContentSync == nil)
        let pause = try db.pause.start(appId: "instagram", platform: "test")
        #expect(pause.content.isBundled)
        clock.advance(by: 3_599)
        #expect(try db.content.sourcesDue().isEmpty)
        clock.advance(by: 1)
        #expect(try db.content.sourcesDue().map(\.url) == [url])
    }

    @Test func theAPIAddsFetchesListsAndRemovesASource() async throws {
        let pack = PackServer()
        pack.serve(.init(body: Self.pack(["api-1"]), etag: "\"a\""))
        // The pack server answers; only the machine's load is slow: no fetch deadline races it.
        var configuration = ServerConfiguration()
        configuration.contentFetch = .patient
        let server = try await TestServer(configuration: configuration)
        try await server.test { client in
            try await pack.application().test(.live) { live in
                let url = "http://127.0.0.1:\(try #require(live.port))/pack.json"
                let added = try await client.post("/api/v1/pause/content-sources", #"{"url":"\#(url)"}"#)
                #expect(added.status == 201)
                #expect((added.object["refresh"] as? [String: Any])?["status"] as? String == "updated")
                #expect((added.object["source"] as? [String: Any])?["itemCount"] as? Int == 1)
                #expect(try await client.post("/api/v1/pause/content-sources", #"{"url":"\#(url)"}"#).status == 409)
                let bad = try await client.post("/api/v1/pause/content-sources", #"{"url":"file:///etc/passwd"}"#)
                #expect(bad.status == 422 && bad.problem["field"] as? String == "url")
                // A source whose first fetch fails is refused with the reason, and nothing is kept to retry.
                let missing = try await client.post("/api/v1/pause/content-sources", #"{"url":"\#(url).missing"}"#)
                #expect(missing.status == 422 && missing.problem["field"] as? String == "url", "\(missing.text)")
                #expect((missing.problem["detail"] as? String)?.hasPrefix("Not added:") == true)
                #expect(try await client.get("/api/v1/pause/content-sources").array.map { $0["url"] as? String } == [url])
                #expect(try await client.get("/api/v1/pause/content/api-1").object["source"] as? String == url)
                let refreshed = try await client.post("/api/v1/pause/content-sources/refresh", "{}")
                #expect(refreshed.array.map { $0["status"] as? String } == ["unchanged"])
                let page = try await client.get("/content")
                #expect(page.text.contains(url) && page.text.contains("1 item"))
                let escaped = url.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? url
                #expect(try await client.request(.delete, "/api/v1/pause/content-sources?url=\(escaped)").object["removed"] as? Int == 1)
                #expect(try await client.request(.delete, "/api/v1/pause/content-sources?url=\(escaped)").status == 404)
                #expect(try await client.request(.delete, "/api/v1/pause/content-sources").status == 400)
            }
        }
    }

    @Test("a pack that redirects to a private, loopback or link-local address is refused; a fetch has one deadline in all")
    func redirectsAndDeadline() async throws {
        let router = Router()
        router.get("to-metadata") { _, _ in Response(status: .found, headers: [.location: "http://169.254.169.254/latest/meta-data/"]) }
        router.get("to-localhost") { request, _ in Response(status: .found, headers: [.location: "http://localhost/pack.json"]) }
        router.get("to-private") { _, _ in Response(status: .temporaryRedirect, headers: [.location: "http://10.0.0.1/pack.json"]) }
        router.get("to-self") { _, _ in Response(status: .found, headers: [.location: "/pack.json"]) }
        router.get("pack.json") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: Self.pack(["r-1"]))))
        }
        // One byte, then the rest only once the test lets go: the read timeout alone would never end it.
        let (held, release) = AsyncStream<Void>.makeStream()
        let bodyEnded = NIOLockedValueBox(false)
        router.get("slow") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: ResponseBody { writer in
                    let pack = Self.pack(["s-1"])
                    try await writer.write(ByteBuffer(string: String(pack.prefix(1))))
                    for await _ in held {}
                    try await writer.write(ByteBuffer(string: String(pack.dropFirst())))
                    bodyEnded.withLockedValue { $0 = true }
                    try await writer.finish(nil)
                })
        }
        let (db, _) = try store()
        try await Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0))).test(.live) { client in
            defer { release.finish() }  // however the test ends, the held body ends and the server stops
            let base = "http://127.0.0.1:\(try #require(client.port))"
            // A deadline no busy machine reaches for the refusals: they must come from the address rule.
            let refresher = ContentRefresher(database: db, client: Self.patient, timeout: .seconds(60))
            for (path, mention) in [("to-metadata", "169.254.169.254"), ("to-localhost", "localhost"), ("to-private", "10.0.0.1")] {
                try db.content.addSource(url: base + "/" + path)
                let outcome = try await refresher.refresh(url: base + "/" + path)
                guard case .failed(let message) = outcome.result else { Issue.record("\(path): \(outcome)"); continue }
                #expect(message.contains(mention), "\(path): \(message)")
            }
            // The local host a person typed is theirs to use, redirects within it included.
            try db.content.addSource(url: base + "/to-self")
            guard case .updated = try await refresher.refresh(url: base + "/to-self").result else { Issue.record("to-self"); return }
            try db.content.addSource(url: base + "/slow")
            let slow = try await ContentRefresher(database: db, timeout: .seconds(2)).refresh(url: base + "/slow")
            // Causal, not timed: the deadline ended the fetch while the body was still held.
            #expect(!bodyEnded.withLockedValue { $0 })
            guard case .failed(let message) = slow.result else { Issue.record("\(slow)"); return }
            #expect(message.contains("within 2 s"), "\(message)")
        }
        #expect(
            SourceAddressPolicy.isLocal([169, 254, 169, 254]) && SourceAddressPolicy.isLocal([172, 20, 0, 1])
                && !SourceAddressPolicy.isLocal([93, 184, 216, 34]))
        #expect(SourceAddressPolicy.isLocal(SourceAddressPolicy.literalAddress("[::ffff:127.0.0.1]") ?? []))
    }
}
