import Foundation
import GroveCore
import GroveHTTP
import GroveStore
import HTTPTypes
import Hummingbird
import HummingbirdBcrypt

/// The login of a browser that is not on this machine (a phone, through a proxy or over HTTPS): the
/// password set with `grove serve password` (the token `grove serve` printed, until one is set),
/// throttled like the sync server's; a session cookie (`HttpOnly`, `SameSite=Strict`, `Secure` over
/// HTTPS); the list of signed-in browsers with "sign out" for each and for all.
struct LoginController {
    let database: AppDatabase
    let templates: WebTemplates
    let configuration: ServerConfiguration
    /// Wrong passwords, per address and for the one account.
    let throttle = LoginThrottle()
    /// Where password checks wait and run.
    let checks = PasswordChecks()
    /// The throttle's one account: the person this Grove belongs to.
    static let account = "grove-serve"

    func addRoutes(to groups: RouteGroups) {
        groups.store.get("login") { request, _ in
            try templates.page(
                "login",
                LoginPage(next: LoginRedirect.safe(request.queryString("next")), hasPassword: try database.webPasswordHash() != nil))
        }
        groups.store.post("login", use: logIn)
        groups.store.post("logout", use: logOut)
        groups.store.get("browsers") { request, context in
            let current = AuthMiddleware.cookie(AuthMiddleware.cookieName, in: request.headers[.cookie]).map(AppDatabase.webSessionID)
            return try templates.page("browsers", BrowsersPage(try database.webSessions(), current: current))
        }
        groups.store.post("browsers/sign-out", use: signOut)
    }

    /// `POST /login`: the password (or, before one is set, the token); a session on success.
    @Sendable func logIn(_ request: Request, context: GroveRequestContext) async throws -> Response {
        var request = request
        let body = try await request.collectBody(upTo: 16 * 1024)
        let form = (try? URLEncodedFormDecoder().decode(LoginForm.self, from: String(buffer: body))) ?? LoginForm()
        let next = LoginRedirect.safe(form.next)
        let hash = try database.webPasswordHash()
        let address = AuthMiddleware.clientAddress(request, context: context), now = database.environment.now
        let refused = { (status: HTTPResponse.Status, error: String) throws -> Response in
            try templates.page("login", LoginPage(next: next, hasPassword: hash != nil, error: error), status: status)
        }
        if let wait = throttle.wait(user: Self.account, address: address, now: now()) {
            var response = try refused(.tooManyRequests, "Too many wrong tries: wait \(wait) seconds, then try again.")
            response.headers[.retryAfter] = "\(wait)"
            return response
        }
        let given = form.password ?? form.token ?? ""
        guard let matches = await checks.check(given, hash: hash, token: configuration.token) else {
            var response = try refused(.tooManyRequests, "Grove is checking other logins: try again in a second.")
            response.headers[.retryAfter] = "1"
            return response
        }
        guard matches else {
            throttle.failed(user: Self.account, address: address, now: now())
            return try refused(.unauthorized, hash == nil ? "That token is not right." : "That password is not right.")
        }
        throttle.succeeded(user: Self.account, address: address, now: now())
        let cookie = Hex.random(bytes: 32)
        let agent = request.headers[.userAgent] ?? "A browser"
        try database.startWebSession(cookie: cookie, userAgent: agent, address: address)
        return Response(
            status: .seeOther,
            headers: [.location: next, .setCookie: sessionCookie(cookie, maxAge: 31_536_000, request: request)])
    }

    /// `POST /logout`: this browser's session ends.
    @Sendable func logOut(_ request: Request, context: GroveRequestContext) async throws -> Response {
        if let cookie = AuthMiddleware.cookie(AuthMiddleware.cookieName, in: request.headers[.cookie]) {
            try database.endWebSession(id: AppDatabase.webSessionID(cookie: cookie))
        }
        // The pages this browser kept for offline reading go with the session (a shared or lost phone).
        var headers: HTTPFields = [.location: "/login", .setCookie: sessionCookie("", maxAge: 0, request: request)]
        if let name = HTTPField.Name("Clear-Site-Data") { headers[name] = #""cache", "storage""# }
        return Response(status: .seeOther, headers: headers)
    }

    /// `POST /browsers/sign-out`: one browser (`id`) or every one (`all`).
    @Sendable func signOut(_ request: Request, context: GroveRequestContext) async throws -> Response {
        var request = request
        let body = try await request.collectBody(upTo: 16 * 1024)
        let form = (try? URLEncodedFormDecoder().decode(SignOutForm.self, from: String(buffer: body))) ?? SignOutForm()
        let all = form.all == "1"
        let ended = all ? try database.endAllWebSessions() > 0 : try form.id.map { try database.endWebSession(id: $0) } ?? false
        guard all || ended else {
            throw APIError.badRequest(field: "id", detail: "Name a signed-in browser from the list, or sign out all")
        }
        // Signing this browser out (with all, or by its id) drops what it kept for offline reading too.
        let own = AuthMiddleware.cookie(AuthMiddleware.cookieName, in: request.headers[.cookie]).map(AppDatabase.webSessionID)
        var headers: HTTPFields = [.location: "/browsers"]
        if all || (own != nil && form.id?.lowercased() == own), let name = HTTPField.Name("Clear-Site-Data") {
            headers[name] = #""cache", "storage""#
        }
        return Response(status: .seeOther, headers: headers)
    }

    /// The cookie: the browser sends it back to this server only, never to a script (`HttpOnly`) or
    /// with a request another site starts (`SameSite=Strict`), and over HTTPS only when the page came
    /// over HTTPS (a browser drops a `Secure` cookie set over plain HTTP).
    func sessionCookie(_ value: String, maxAge: Int, request: Request) -> String {
        let secure = AuthMiddleware.isSecure(request, configuration: configuration) ? "; Secure" : ""
        return "\(AuthMiddleware.cookieName)=\(value); Path=/; HttpOnly; SameSite=Strict; Max-Age=\(maxAge)\(secure)"
    }

}

/// Where `grove serve`'s password checks wait and run: bcrypt on a queue of its own, never the event
/// loop, with at most `maxWaiting` waiting (past that a login is told to retry before anything is
/// hashed).
final class PasswordChecks: @unchecked Sendable {
    static let maxWaiting = 16
    private let queue = DispatchQueue(label: "grove.serve.passwords", qos: .utility)
    private let lock = NSLock()
    private var waiting = 0

    /// Whether `given` is the password or, with no password set, the token; nil when too many checks
    /// wait already.
    func check(_ given: String, hash: String?, token: String?) async -> Bool? {
        guard let hash else { return token.map { AuthMiddleware.constantTimeEqual(given, $0) } ?? false }
        let admitted = lock.withLock { () -> Bool in
            guard waiting < Self.maxWaiting else { return false }
            waiting += 1
            return true
        }
        guard admitted else { return nil }
        return await withCheckedContinuation { continuation in
            queue.async { [self] in
                let matches = given.utf8.count <= 72 && Bcrypt.verify(given, hash: hash)
                lock.withLock { waiting -= 1 }
                continuation.resume(returning: matches)
            }
        }
    }
}

/// What the sign-out form posts.
struct SignOutForm: Decodable {
    var id: String?
    var all: String?
}
