import Foundation
import GroveCore
import GroveStore
import HTTPTypes
import Hummingbird
import HummingbirdBcrypt
import HummingbirdTesting
import Testing

@testable import GroveServer

/// `grove serve` for a phone: every request that did not come straight from this machine — for a
/// public origin, through a proxy on 127.0.0.1, from the network — needs the password's session or
/// the token; straight from loopback stays open.
@Suite("Remote login: public origins, proxies, password sessions, throttle, sign-out", .timeLimit(.minutes(5)))
struct RemoteLoginTests {
    static let origin = "https://grove.tail1234.ts.net"
    static let password = "correct horse battery"

    static func configuration() throws -> ServerConfiguration {
        var configuration = ServerConfiguration(host: "127.0.0.1", port: 0)
        configuration.publicOrigins = [try #require(PublicOrigin(origin))]
        configuration.token = "0123456789abcdef0123456789abcdef"
        return configuration
    }

    /// A live server on 127.0.0.1 as `grove serve --public-origin` runs it, with a password set.
    static func run(_ body: @escaping @Sendable (Int, AppDatabase, TestClock) async throws -> Void) async throws {
        let server = try await TestServer(configuration: try configuration())
        try server.database.setWebPassword(hash: Bcrypt.hash(password, cost: 4))
        let (database, clock) = (server.database, server.clock)
        let app = Application(router: server.parts.router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in try await body(try #require(client.port), database, clock) }
    }

    static func send(
        _ port: Int, _ method: HTTPRequest.Method, _ path: String, authority: String, headers: HTTPFields = [:], form: String? = nil
    )
        async throws -> TestClient.Response
    {
        var headers = headers
        if form != nil { headers[.contentType] = "application/x-www-form-urlencoded" }
        return try await SecurityTests.send(port: port, method, path, authority: authority, headers: headers, body: form)
    }

    static func via(proxyFor client: String, cookie: String? = nil, origin: String? = nil) -> HTTPFields {
        var headers = HTTPFields()
        if let name = HTTPField.Name("X-Forwarded-For") { headers[name] = client }
        if let cookie { headers[.cookie] = cookie }
        if let origin { headers[.origin] = origin }
        return headers
    }

    @Test("straight from loopback needs nothing; the same request for the public origin or through a proxy needs a login")
    func onlyTheDirectRequestIsOpen() async throws {
        try await Self.run { port, _, _ in
            #expect(try await Self.send(port, .get, "/api/v1/focus/current", authority: "127.0.0.1:\(port)").status == .ok)
            #expect(try await Self.send(port, .get, "/stats", authority: "localhost:\(port)").status == .ok)
            // The public origin, with no cookie: the login page for a page, 401 for the API — never the data.
            let page = try await Self.send(port, .get, "/stats", authority: "grove.tail1234.ts.net")
            #expect(page.status == .seeOther && page.headers[.location] == "/login?next=%2Fstats")
            #expect(try await Self.send(port, .get, "/api/v1/export", authority: "grove.tail1234.ts.net").status == .unauthorized)
            // A proxy that kept Host as 127.0.0.1 but said it forwarded: a login too.
            #expect(
                try await Self.send(
                    port, .get, "/api/v1/export", authority: "127.0.0.1:\(port)", headers: Self.via(proxyFor: "198.51.100.7")
                )
                .status == .unauthorized)
            // A proxy that rewrote Host and added nothing, for a page of the public origin.
            var referred = HTTPFields()
            referred[.referer] = Self.origin + "/focus"
            #expect(
                try await Self.send(port, .get, "/api/v1/export", authority: "127.0.0.1:\(port)", headers: referred).status == .unauthorized
            )
            // Another name is still refused outright (DNS rebinding), and the login form and the app's files hold no data.
            #expect(try await Self.send(port, .get, "/api/v1/export", authority: "evil.example").status == .forbidden)
            #expect(try await Self.send(port, .get, "/login", authority: "grove.tail1234.ts.net").status == .ok)
            #expect(try await Self.send(port, .get, "/static/app.css", authority: "grove.tail1234.ts.net").status == .ok)
            // Scripts send the token.
            var bearer = HTTPFields()
            bearer[.authorization] = "Bearer 0123456789abcdef0123456789abcdef"
            #expect(
                try await Self.send(port, .get, "/api/v1/focus/current", authority: "grove.tail1234.ts.net", headers: bearer).status == .ok)
        }
    }

    @Test("the password signs a browser in with an HttpOnly, Secure, SameSite=Strict session; wrong ones are throttled to 429")
    func passwordSessionsAndThrottle() async throws {
        try await Self.run { port, database, _ in
            let host = "grove.tail1234.ts.net"
            func logIn(from address: String, _ password: String) async throws -> TestClient.Response {
                try await Self.send(
                    port, .post, "/login", authority: host, headers: Self.via(proxyFor: address, origin: Self.origin),
                    form: "password=\(password.replacingOccurrences(of: " ", with: "+"))&next=%2Ftimers")
            }
            // The owner's phone signed in once; then someone guesses from elsewhere.
            #expect(try await logIn(from: "192.0.2.44", Self.password).status == .seeOther)
            try database.endAllWebSessions()
            for attempt in 1...5 {
                #expect(try await logIn(from: "203.0.113.5", "guess-\(attempt)").status == .unauthorized, "attempt \(attempt)")
            }
            let sixth = try await logIn(from: "203.0.113.5", Self.password)
            #expect(sixth.status == .tooManyRequests && sixth.headers[.retryAfter] != nil, "refused before anything is checked")
            // A new address waits too (the account is being guessed at); the phone that signed in before does not.
            #expect(try await logIn(from: "198.51.100.9", Self.password).status == .tooManyRequests)
            #expect(try database.webSessions().isEmpty)
            let login = try await logIn(from: "192.0.2.44", Self.password)
            #expect(login.status == .seeOther && login.headers[.location] == "/timers")
            let setCookie = try #require(login.headers[.setCookie])
            for attribute in ["HttpOnly", "Secure", "SameSite=Strict", "Path=/"] { #expect(setCookie.contains(attribute), "\(attribute)") }
            let cookie = String(setCookie.prefix { $0 != ";" })
            #expect(!setCookie.contains(Self.password))
            let sessions = try database.webSessions()
            #expect(sessions.count == 1 && sessions.first?.address == "192.0.2.44")

            let signedIn = Self.via(proxyFor: "192.0.2.44", cookie: cookie)
            #expect(try await Self.send(port, .get, "/api/v1/focus/current", authority: host, headers: signedIn).status == .ok)
            let list = try await Self.send(port, .get, "/browsers", authority: host, headers: signedIn)
            let listed = String(buffer: list.body ?? ByteBuffer())
            #expect(list.status == .ok && listed.contains("this browser"), "\(listed)")
            // A write from the public origin's own page passes the origin check; one naming another origin does not.
            var write = Self.via(proxyFor: "192.0.2.44", cookie: cookie, origin: Self.origin)
            write[.contentType] = "application/json"
            #expect(
                try await SecurityTests.send(port: port, .post, "/api/v1/focus/start", authority: host, headers: write, body: "{}").status
                    == .created)
            write[.origin] = "http://grove.tail1234.ts.net"
            #expect(
                try await SecurityTests.send(port: port, .post, "/api/v1/focus/stop", authority: host, headers: write, body: "{}").status
                    == .forbidden)

            // Signed out from the list: the cookie opens nothing any more.
            let id = try #require(sessions.first?.id)
            var signOut = Self.via(proxyFor: "192.0.2.44", cookie: cookie, origin: Self.origin)
            signOut[.contentType] = "application/x-www-form-urlencoded"
            let ended = try await Self.send(port, .post, "/browsers/sign-out", authority: host, headers: signOut, form: "id=\(id)")
            #expect(ended.status == .seeOther)
            let cleared = HTTPField.Name("Clear-Site-Data").flatMap { ended.headers[$0] }
            #expect(cleared == #""cache", "storage""#, "its offline pages go too")
            #expect(try await Self.send(port, .get, "/api/v1/focus/current", authority: host, headers: signedIn).status == .unauthorized)
            #expect(try database.webSessions().isEmpty)
        }
    }

    @Test("a session written to the store is let in; three idle months and a new password sign browsers out")
    func passwordChangeAndOtherProcesses() async throws {
        try await Self.run { port, database, clock in
            let host = "grove.tail1234.ts.net"
            let cookie = Hex.random(bytes: 32)
            try database.startWebSession(cookie: cookie, userAgent: "Mozilla/5.0 (Linux; Android 14) Chrome/131", address: "192.0.2.1")
            let headers = Self.via(proxyFor: "192.0.2.1", cookie: "grove_session=\(cookie)")
            #expect(try await Self.send(port, .get, "/api/v1/focus/current", authority: host, headers: headers).status == .ok)
            // Unused for three months (the server's clock moves on): signed out at its next use.
            let idle = Hex.random(bytes: 32)
            try database.startWebSession(cookie: idle, userAgent: "Firefox/130", address: "192.0.2.2")
            let idleHeaders = Self.via(proxyFor: "192.0.2.2", cookie: "grove_session=\(idle)")
            #expect(try await Self.send(port, .get, "/api/v1/focus/current", authority: host, headers: idleHeaders).status == .ok)
            clock.advance(by: 91 * 86_400)
            #expect(try await Self.send(port, .get, "/api/v1/focus/current", authority: host, headers: idleHeaders).status == .unauthorized)
            #expect(try database.webSessions().map(\.address) == ["192.0.2.1"], "the idle one is gone, the used one stays")
            try database.setWebPassword(hash: Bcrypt.hash("another password", cost: 4))
            #expect(try await Self.send(port, .get, "/api/v1/focus/current", authority: host, headers: headers).status == .unauthorized)
            #expect(
                BrowsersPage.describe("Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/131 Mobile Safari/537.36")
                    == "Chrome on Android")
        }
    }

    @Test("a form posted with Origin: null (no-referrer pages) passes only when the browser says it came from this site")
    func nullOriginNeedsSameOriginFetch() async throws {
        let server = try await TestServer()
        try await server.test { c in
            func post(_ site: String?) async throws -> Int {
                var headers = HTTPFields()
                headers[.origin] = "null"
                if let site, let name = HTTPField.Name("Sec-Fetch-Site") { headers[name] = site }
                return try await c.request(.post, "/api/v1/timers", json: #"{"name":"Tea","durationInSeconds":180}"#, headers: headers)
                    .status
            }
            let (same, cross, sibling, unnamed) = (
                try await post("same-origin"), try await post("cross-site"), try await post("same-site"), try await post(nil)
            )
            #expect(same == 201)
            #expect(cross == 403)
            #expect(sibling == 403)
            #expect(unnamed == 403, "a sandboxed frame, or a client that names no site")
        }
    }

    @Test("public origins parse as scheme, host and port only")
    func publicOriginsParse() {
        #expect(PublicOrigin("https://Grove.Example/")?.description == "https://grove.example")
        #expect(PublicOrigin("https://grove.example:8443")?.port == 8443)
        #expect(PublicOrigin("http://[::1]:9000")?.description == "http://[::1]:9000")
        for bad in ["grove.example", "https://grove.example/app", "ftp://grove.example", "https://user@grove.example", "https://"] {
            #expect(PublicOrigin(bad) == nil, "\(bad)")
        }
    }
}
