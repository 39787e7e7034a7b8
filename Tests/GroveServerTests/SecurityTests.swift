import Foundation
import GroveCore
import GroveStore
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import GroveServer

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Server hardening: hosts, origins, headers, redirects, bounds, freshness")
struct SecurityTests {
    /// Sends one request with `authority` as its Host to a live server on loopback.
    static func send(
        port: Int, _ method: HTTPRequest.Method, _ path: String, authority: String, headers: HTTPFields = [:], body: String? = nil
    )
        async throws -> TestClient.Response
    {
        // No read timeout of its own (the default 15 s passes on a loaded machine): the suite's time limit bounds it.
        let client = TestClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(3600)))
        client.connect()
        defer { Task { try? await client.shutdown() } }
        var headers = headers
        if body != nil { headers[.contentType] = "application/json" }
        return try await client.execute(
            .init(path, method: method, authority: authority, headers: headers, body: body.map { ByteBuffer(string: $0) }))
    }

    @Test func onLoopbackOnlyLoopbackHostNamesAreAnswered() async throws {
        let server = try await TestServer()
        let database = server.database
        let app = Application(router: server.parts.router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            for good in ["localhost", "localhost:\(port)", "127.0.0.1:\(port)", "127.0.0.2", "[::1]:\(port)", "LOCALHOST"] {
                #expect(try await Self.send(port: port, .get, "/api/v1/export", authority: good).status == .ok, "\(good)")
            }
            // A DNS-rebinding page reaches 127.0.0.1 under its own name: refused, for reads and writes alike.
            for bad in [
                "evil.example", "evil.example:\(port)", "localhost.evil.example", "127.0.0.1.nip.io", "[::2]:\(port)", "user@localhost",
            ] {
                let reply = try await Self.send(port: port, .get, "/api/v1/export", authority: bad)
                #expect(reply.status == .forbidden, "\(bad)")
                #expect(reply.headers[.contentType] == "application/problem+json")
            }
            let write = try await Self.send(
                port: port, .post, "/api/v1/timers", authority: "rebind.example", body: #"{"name":"x","durationInSeconds":5}"#)
            #expect(write.status == .forbidden)
            #expect(try database.timers.all().isEmpty)
        }
    }

    @Test func writesFromAnotherOriginAreRefusedAndOwnWritesOnIPv6Pass() async throws {
        let server = try await TestServer()
        let database = server.database
        let app = Application(router: server.parts.router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let body = #"{"name":"Tea","durationInSeconds":60}"#
            let own = try await Self.send(
                port: port, .post, "/api/v1/timers", authority: "[::1]:\(port)",
                headers: [.origin: "http://[::1]:\(port)"], body: body)
            #expect(own.status == .created)
            let other = try await Self.send(
                port: port, .post, "/api/v1/timers", authority: "localhost:\(port)",
                headers: [.origin: "http://evil.example"], body: body)
            #expect(other.status == .forbidden)
            let otherPort = try await Self.send(
                port: port, .post, "/api/v1/timers", authority: "localhost:\(port)",
                headers: [.origin: "http://localhost:\(port + 1)"], body: body)
            #expect(otherPort.status == .forbidden)
            var crossSite = HTTPFields()
            crossSite[try #require(HTTPField.Name("Sec-Fetch-Site"))] = "cross-site"
            #expect(
                try await Self.send(port: port, .delete, "/api/v1/timers/\(UUID())", authority: "localhost", headers: crossSite).status
                    == .forbidden)
            #expect(try database.timers.all().count == 1)
        }
    }

    @Test func everyResponseCarriesTheSecurityHeaders() async throws {
        let server = try await TestServer()
        try await server.test { c in
            for path in ["/", "/focus", "/api/v1/focus/stats", "/api/v1/nope", "/static/app.js", "/api/v1/focus/sessions?limit=-1"] {
                let response = try await c.client.execute(uri: path, method: .get, headers: [:], body: nil) { $0 }
                let csp = response.headers[.contentSecurityPolicy] ?? ""
                #expect(csp.contains("frame-ancestors 'none'") && csp.contains("script-src 'self'"), "\(path): \(csp)")
                #expect(response.headers[.xContentTypeOptions] == "nosniff", "\(path)")
                #expect(response.headers[try #require(HTTPField.Name("Referrer-Policy"))] == "no-referrer", "\(path)")
            }
        }
    }

    @Test func theLoginRedirectStaysOnThisSite() {
        #expect(LoginRedirect.safe("/stats") == "/stats")
        #expect(LoginRedirect.safe("/intentions?q=a%20b") == "/intentions?q=a%20b")
        for bad in [
            "//evil.example", "/\\evil.example", "/\\/evil.example", "https://evil.example", "evil", "", "/\tevil", "/ /x", "/a\\b", nil,
        ] {
            #expect(LoginRedirect.safe(bad) == "/", "\(bad ?? "nil")")
        }
    }

    @Test func theLoginFormIgnoresAForeignNext() async throws {
        let token = "0123456789abcdef0123456789abcdef"
        let server = try await TestServer(configuration: ServerConfiguration(host: "0.0.0.0", port: 8080, token: token))
        try await server.test { c in
            for next in ["%2F%5Cevil.example", "%2F%2Fevil.example", "https%3A%2F%2Fevil.example"] {
                let login = try await c.client.execute(
                    uri: "/login", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                    body: ByteBuffer(string: "token=\(token)&next=\(next)")
                ) { $0 }
                #expect(login.headers[.location] == "/", "\(next)")
            }
            let page = try await c.get("/login?next=/%5Cevil.example")
            #expect(!page.text.contains("evil.example"))
        }
    }

    /// Every number a query takes is checked where it is read; the server answers after each.
    @Test func outOfRangeQueryNumbersAre400sAndTheServerStaysUp() async throws {
        let server = try await TestServer()
        try await server.test { c in
            let paths = [
                "/api/v1/focus/sessions", "/api/v1/focus/sessions?state=abandoned&", "/api/v1/focus/sessions?state=completed&",
                "/api/v1/focus/forest", "/api/v1/pause/sessions",
            ]
            for path in paths {
                let join = path.contains("?") ? (path.hasSuffix("&") ? "" : "&") : "?"
                for (query, field) in [
                    ("limit=-1", "limit"), ("limit=0", "limit"), ("limit=1001", "limit"), ("limit=99999999999999999999", "limit"),
                    ("limit=abc", "limit"), ("offset=-5", "offset"), ("offset=1e9", "offset"), ("limit=9223372036854775807", "limit"),
                ] {
                    expectProblem(try await c.get(path + join + query), 400, field: field)
                    #expect(try await c.get("/api/v1/focus/current").status == 200, "still up after \(path)\(join)\(query)")
                }
            }
            expectProblem(try await c.get("/api/v1/timers?incomplete=maybe"), 400, field: "incomplete")
            // A reversed range is a question asked wrongly, not an empty answer.
            expectProblem(try await c.get("/api/v1/intentions?from=2026-11-23&to=2026-05-08"), 400, field: "to")
            expectProblem(try await c.get("/api/v1/pause/usage?from=2026-11-23&to=2026-05-08"), 400, field: "to")
            // Paging by offset is bounded (each skipped row is a step); deeper pages go by the cursor.
            #expect(try await c.get("/api/v1/focus/sessions?limit=1000&offset=10000").status == 200)
            expectProblem(try await c.get("/api/v1/focus/sessions?limit=1000&offset=2147483647"), 400, field: "offset")
            expectProblem(try await c.get("/api/v1/focus/forest?offset=10001"), 400, field: "offset")
        }
    }

    @Test func listsPageInSQL() async throws {
        let server = try await TestServer()
        let calendar = ZonedCalendar(timeZone: try #require(TimeZone(identifier: "UTC")))
        let database = server.database
        try database.focus.insert(
            SyntheticHistory.sessions(count: 250, days: 20, lastDay: try #require(LocalDay("2025-05-10")), calendar: calendar))
        try await server.test { c in
            #expect(try await c.get("/api/v1/focus/sessions").array.count == 100, "a default page")
            let all = try database.focus.all().map(\.id.uuidString)
            let page = try await c.get("/api/v1/focus/sessions?limit=7&offset=3").array.compactMap { $0["id"] as? String }
            #expect(page == Array(all[3..<10]))
            // A full page names the next one by cursor; following the links meets every session once; the
            // last page names none.
            var next: String? = "/api/v1/focus/sessions?state=abandoned&limit=20"
            var walked: [String] = []
            while let path = next {
                let reply = try await c.get(path)
                walked += reply.array.compactMap { $0["id"] as? String }
                next = reply.link.flatMap { $0.firstMatch(of: /<([^>]+)>; rel="next"/).map { String($0.1) } }
                if let next { #expect(next.contains("state=abandoned&limit=20&after=") && !next.contains("offset")) }
            }
            #expect(walked == (try database.focus.sessions(state: .abandoned, limit: 1000).map(\.id.uuidString)))
            let forest5 = try await c.get("/api/v1/focus/forest?limit=5")
            let cursor = try #require(forest5.link?.firstMatch(of: /after=([^&>]+)/).map { String($0.1) })
            let forestNext = try await c.get("/api/v1/focus/forest?limit=5&after=\(cursor)").array.compactMap { $0["id"] as? String }
            #expect(forestNext == (try database.focus.completed(limit: 5, offset: 5).map(\.id.uuidString)))
            // A cursor that is not one, or one beside an offset, is refused naming it.
            for bad in ["after=yesterday", "after=99999999999999999~x", "after=\(cursor)&offset=5"] {
                let refused = try await c.get("/api/v1/focus/sessions?\(bad)")
                #expect(refused.status == 400 && refused.problem["field"] as? String == "after", "\(bad)")
            }
            #expect(try await c.get("/api/v1/focus/sessions?limit=7&offset=3").link?.contains("after=") == true)
            // The web forest pages by days: two weeks, then "Older days".
            let forest = try await c.get("/forest").text
            #expect(forest.contains("href=\"/forest?before=2025-04-2"), "an Older link")
            let older = try await c.get("/forest?before=2025-04-25").text
            #expect(older.contains("2025-04-24") && !older.contains("<h3>2025-04-25"))
            #expect(try await c.get("/forest?before=someday").status == 400)
        }
    }

    /// A GET right after another process commits reflects the commit, without waiting for the poller.
    @Test func aGetAfterAnotherProcessCommitsSeesIt() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("grove-fresh-\(UUID().uuidString)")
        let path = dir.appendingPathComponent("grove.sqlite").path
        let clock = TestClock(Date(timeIntervalSince1970: 1_747_213_200))
        let serverSide = try AppDatabase.open(path: path, environment: .test(clock: clock))
        let otherProcess = try AppDatabase.open(path: path, environment: .test(clock: clock))
        // The monitor's watcher never runs here: freshness must come from the request path.
        let monitor = ChangeMonitor(path: serverSide.path)
        let parts = try await buildRouter(database: serverSide, configuration: ServerConfiguration(), monitor: monitor)
        try await Application(router: parts.router).test(.router) { client in
            let c = Client(client: client)
            for _ in 0..<5 {
                #expect(try await c.get("/api/v1/focus/current").object["session"] == nil)
                _ = try await c.get("/api/v1/focus/stats")
                try otherProcess.focus.start(plannedDuration: 600)
                let current = try await c.get("/api/v1/focus/current").object
                #expect((current["session"] as? [String: Any])?["state"] as? String == "active")
                try otherProcess.focus.abandon()
                #expect(try await c.get("/api/v1/focus/stats").object["abandonedCount"] != nil)
            }
            #expect(try await c.get("/api/v1/focus/stats").object["abandonedCount"] as? Int == 5)
            // The cached intention and preferences follow another process's writes, and the
            // intention the next local day (the cache expires at midnight).
            #expect(try await c.get("/api/v1/intentions/current").text == "null")
            _ = try await c.get("/api/v1/preferences")
            try otherProcess.intentions.set("Read a chapter", scope: .day)
            try otherProcess.intentions.changePreferences { $0.firstWeekday = 3 }
            #expect(try await c.get("/api/v1/intentions/current").object["text"] as? String == "Read a chapter")
            #expect(try await c.get("/api/v1/preferences").object["firstWeekday"] as? Int == 3)
            // Every cached list and preference object follows another process's write at once.
            let themes = try await c.get("/api/v1/themes?kind=custom").array.count
            let focusLength = try await c.get("/api/v1/focus/preferences").object["focusDuration"] as? Double
            _ = try await c.get("/api/v1/pause/apps")
            _ = try await c.get("/api/v1/pause/preferences")
            try otherProcess.themes.create(
                IntentionTheme(id: UUID(), name: "Dusk", backgroundColor: "#102030", textColor: "#FFFFFF", createdAt: clock.now))
            _ = try otherProcess.focus.changePreferences { $0.focusDuration = 3000 }
            try otherProcess.pause.setAppEnabled(id: "youtube", true)
            _ = try otherProcess.pause.changePreferences { $0.timerDuration = 30 }
            #expect(try await c.get("/api/v1/themes?kind=custom").array.count == themes + 1)
            #expect(focusLength != 3000)
            let newLength = try await c.get("/api/v1/focus/preferences").object["focusDuration"] as? Double
            #expect(newLength == 3000)
            #expect(try await c.get("/api/v1/pause/apps").array.first { $0["id"] as? String == "youtube" }?["isEnabled"] as? Bool == true)
            #expect(try await c.get("/api/v1/pause/preferences").object["timerDuration"] as? Int == 30)
            clock.advance(by: 86_400)
            #expect(try await c.get("/api/v1/intentions/current").text == "null", "yesterday's day intention is not today's")
        }
    }

    @Test func writesToADeletedStoreAreRefusedNotAcknowledged() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("grove-gone-\(UUID().uuidString)")
        let path = dir.appendingPathComponent("grove.sqlite").path
        let database = try AppDatabase.open(path: path, environment: .test(clock: TestClock(Date(timeIntervalSince1970: 1_747_213_200))))
        let parts = try await buildRouter(database: database, configuration: ServerConfiguration(), monitor: ChangeMonitor(path: nil))
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        try await Application(router: parts.router).test(.router) { client in
            let reply = try await Client(client: client).post("/api/v1/timers", #"{"name":"Tea","durationInSeconds":60}"#)
            expectProblem(reply, 503, detail: "was deleted")
        }
    }

    @Test("--token is honoured on loopback too: other programs with loopback access are kept out, and the Host rule stays")
    func tokenOnLoopback() async throws {
        let token = "0123456789abcdef0123456789abcdef"
        let server = try await TestServer(configuration: ServerConfiguration(host: "127.0.0.1", port: 8080, token: token))
        try await server.test { c in
            let refused = try await c.get("/api/v1/focus/current")
            #expect(refused.status == 401)
            #expect(try await c.get("/api/v1/focus/current", headers: [.authorization: "Bearer \(token)"]).status == 200)
        }
        let app = Application(router: server.parts.router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let auth: HTTPFields = [.authorization: "Bearer \(token)"]
            #expect(try await Self.send(port: port, .get, "/api/v1/export", authority: "127.0.0.1:\(port)", headers: auth).status == .ok)
            #expect(
                try await Self.send(port: port, .get, "/api/v1/export", authority: "rebind.example", headers: auth).status == .forbidden)
        }
    }

    @Test("a gateway page reached otherwise than on the way to the app counts nothing until the person starts the pause")
    func gatewayFromAnotherSite() async throws {
        let server = try await TestServer()
        try server.database.pause.setAppEnabled(id: "youtube", true)
        try await server.test { c in
            let name = try #require(HTTPField.Name("Sec-Fetch-Site"))
            let foreign = try await c.get("/pause/youtube", headers: [name: "cross-site"])
            #expect(foreign.status == 200)
            #expect(foreign.text.contains(#"data-confirm="yes""#) && foreign.text.contains("Another site sent you here."))
            // Grove's own links are on the way; a typed address or a bookmark is a look, not an attempt.
            #expect(try await c.get("/pause/youtube", headers: [name: "same-origin"]).text.contains(#"data-confirm="no""#))
            for typed in [try await c.get("/pause/youtube", headers: [name: "none"]), try await c.get("/pause/youtube")] {
                #expect(typed.text.contains(#"data-confirm="yes""#) && typed.text.contains("You opened this page yourself."))
            }
            // The extension's visit carries the key only it can read.
            let key = try #require(try await c.get("/api/v1/pause/gate").object["key"] as? String)
            #expect(try await c.get("/pause/youtube?key=\(key)", headers: [name: "cross-site"]).text.contains(#"data-confirm="no""#))
            #expect(try await c.get("/pause/youtube?key=guess", headers: [name: "cross-site"]).text.contains(#"data-confirm="yes""#))
        }
    }

    #if canImport(Glibc)
        /// Sends `bytes` on a raw connection and returns the status line of the answer.
        static func raw(port: Int, _ bytes: String) throws -> String {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else { return "no connection" }
            // Generous: on a loaded machine (CI runs the suites side by side) an answer can take seconds.
            var timeout = timeval(tv_sec: 60, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            _ = Array(bytes.utf8).withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, 0) }
            shutdown(fd, Int32(SHUT_WR))
            var answer: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 512)
            while !answer.contains(0x0A) {
                let count = recv(fd, &buffer, buffer.count, 0)
                guard count > 0 else { break }
                answer += buffer.prefix(count)
            }
            return String(decoding: answer, as: UTF8.self).components(separatedBy: "\r\n").first ?? ""
        }

        @Test("a malformed chunked body is a 400, not a 500")
        func malformedChunkedBody() async throws {
            let server = try await TestServer()
            let app = Application(router: server.parts.router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
            try await app.test(.live) { client in
                let port = try #require(client.port)
                for body in ["zz\r\nhello\r\n0\r\n\r\n", "5\r\nhel", "3\r\nhello\r\n0\r\n\r\n"] {
                    let head =
                        "POST /api/v1/timers HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                    let status = try Self.raw(port: port, head + body)
                    // Never a 500; a broken chunk is named as the client's fault (a body cut short may also
                    // just end the connection).
                    #expect(!status.hasPrefix("HTTP/1.1 5"), "\(body.debugDescription): \(status)")
                    if body.hasPrefix("zz") { #expect(status.hasPrefix("HTTP/1.1 400"), "\(body.debugDescription): \(status)") }
                }
            }
        }
    #endif
}
