import Foundation
import GroveCore
import GroveStore
import GroveTestSupport
import Hummingbird
import HummingbirdTesting
import Testing

@testable import GroveServer

@Suite("Server: authentication, OpenAPI, live events, reminders, pages", .timeLimit(.minutes(5)))
struct ServerTests {
    static let token = "0123456789abcdef0123456789abcdef"

    @Test func aNonLoopbackBindNeedsTheToken() async throws {
        let server = try await TestServer(configuration: ServerConfiguration(host: "0.0.0.0", port: 8080, token: Self.token))
        try await server.test { c in
            expectProblem(try await c.get("/api/v1/focus/current"), 401)
            expectProblem(try await c.post("/api/v1/focus/start"), 401)
            var wrong = HTTPFields()
            wrong[.authorization] = "Bearer nope"
            expectProblem(try await c.get("/api/v1/focus/stats", headers: wrong), 401)
            var bearer = HTTPFields()
            bearer[.authorization] = "Bearer \(Self.token)"
            #expect(try await c.get("/api/v1/focus/stats", headers: bearer).status == 200)
            // The web app: pages redirect to the login, which sets an HttpOnly, SameSite=Strict cookie.
            let page = try await c.get("/stats")
            #expect(page.status == 303)
            #expect(try await c.get("/login").status == 200)
            #expect(try await c.get("/static/app.css").status == 200)
            let bad = try await c.request(.post, "/login", json: nil, headers: [.contentType: "application/x-www-form-urlencoded"])
            #expect(bad.status == 401)
            let login = try await c.client.execute(
                uri: "/login", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: "token=\(Self.token)&next=%2Fstats")
            ) { $0 }
            #expect(login.status == .seeOther)
            #expect(login.headers[.location] == "/stats")
            let cookie = try #require(login.headers[.setCookie])
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
            #expect(!cookie.contains(Self.token), "the cookie is a session of its own, never the token")
            var withCookie = HTTPFields()
            withCookie[.cookie] = String(cookie.prefix { $0 != ";" })
            #expect(try await c.get("/stats", headers: withCookie).status == 200)
            #expect(try await c.get("/api/v1/focus/current", headers: withCookie).status == 200)
        }
    }

    /// The whole application as `grove serve` runs it — router, change monitor, reminders, maintenance —
    /// on a real socket: what tests of the router alone would not catch (services that fail to start,
    /// middleware order).
    @Test func theWholeApplicationServesOnLoopback() async throws {
        let clock = TestClock(ISO8601DateFormatter().date(from: "2025-05-14T09:00:00Z") ?? Date())
        let database = try AppDatabase.inMemory(environment: .test(clock: clock))
        let app = try await buildApplication(database: database, configuration: ServerConfiguration(host: "127.0.0.1", port: 0))
        try await app.test(.live) { client in
            let c = Client(client: client)
            #expect(try await c.get("/api/v1/focus/current").status == 200)
            #expect(try await c.post("/api/v1/focus/start", #"{"plannedDuration": 600}"#).status == 201)
            let current = try await c.get("/api/v1/focus/current").object
            #expect((current["session"] as? [String: Any])?["state"] as? String == "active")
            #expect(try await c.get("/").text.contains("Grove"))
            expectProblem(try await c.get("/api/v1/nope"), 404)
        }
    }

    @Test func loopbackNeedsNoLogin() async throws {
        #expect(ServerConfiguration(host: "127.0.0.1").requiresAuthentication == false)
        #expect(ServerConfiguration(host: "localhost").requiresAuthentication == false)
        #expect(ServerConfiguration(host: "::1").requiresAuthentication == false)
        #expect(ServerConfiguration(host: "0.0.0.0").requiresAuthentication)
        #expect(ServerConfiguration(host: "192.168.1.5").requiresAuthentication)
        #expect(ServerConfiguration(host: "127.0.0.1.nip.io").requiresAuthentication, "a name that starts with 127. is not loopback")
        #expect(ServerConfiguration(host: "127.evil.example").requiresAuthentication)
        #expect(ServerConfiguration(host: "127.1").requiresAuthentication)
        #expect(ServerConfiguration(host: "127.0.0.9").requiresAuthentication == false)
        let loopback = ["LocalHost", "[::1]", "127.255.255.255", "127.000.0.001", "127.1.2.3"]
        let elsewhere = [
            "", "localhost.", "localhosts", "127.0.0.256", "127.0.0.1000", "127.0.0.", ".127.0.0.1", "127..0.1", "127.0.0.1.1",
            "127.+1.0.1", "127.0.0.1 ", "::2", "[::1", "::ffff:127.0.0.1", "128.0.0.1", "1127.0.0.1", "ⅼocalhost", "１２７.0.0.1",
        ]
        for host in loopback { #expect(ServerConfiguration.isLoopback(host), "\(host)") }
        for host in elsewhere { #expect(!ServerConfiguration.isLoopback(host), "\(host)") }
    }

    @Test func theOpenAPIDocumentListsExactlyTheRegisteredRoutes() async throws {
        let server = try await TestServer()
        let registered = Set(server.parts.routes.routes)
        #expect(registered.count >= 60)
        // Read "  /path:" and "    method:" lines of the paths section.
        var documented = Set<String>()
        var path: String?
        var inPaths = false
        for line in try OpenAPIDocument.yaml().split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "paths:" { inPaths = true; continue }
            if inPaths && !line.hasPrefix(" ") && !line.isEmpty { break }
            guard inPaths else { continue }
            if line.hasPrefix("  /"), line.hasSuffix(":"), !line.hasPrefix("   ") { path = String(line.dropFirst(2).dropLast()); continue }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("    "), !line.hasPrefix("     "), ["get:", "post:", "put:", "patch:", "delete:"].contains(trimmed), let path
            {
                documented.insert("\(trimmed.dropLast().uppercased()) \(path)")
            }
        }
        #expect(registered.subtracting(documented).sorted() == [], "routes missing from openapi.yaml")
        #expect(documented.subtracting(registered).sorted() == [], "documented routes that do not exist")
    }

    /// Generated clients name their methods by `operationId` (without one: `get_api_v_1_pause_apps_app_id`).
    @Test func everyOperationHasItsOwnOperationId() throws {
        let lines = try OpenAPIDocument.yaml().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var operations = 0
        var ids: [String] = []
        for (index, line) in lines.enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard line.hasPrefix("    "), !line.hasPrefix("     "), ["get:", "post:", "put:", "patch:", "delete:"].contains(trimmed) else {
                continue
            }
            operations += 1
            let next = index + 1 < lines.count ? lines[index + 1] : ""
            let id = next.trimmingCharacters(in: .whitespaces)
            #expect(id.hasPrefix("operationId: "), "no operationId after line \(index + 1): \(line)")
            ids.append(String(id.dropFirst("operationId: ".count)))
        }
        #expect(operations >= 90)
        #expect(Set(ids).count == ids.count, "operationIds used twice: \(ids.filter { id in ids.filter { $0 == id }.count > 1 })")
        #expect(ids.allSatisfy { $0.wholeMatch(of: /[a-z][A-Za-z]+/) != nil })
    }

    /// Every event the live stream can carry is one the document names, and its data is valid JSON
    /// even when the text inside it is the person's own (quotes, newlines, control characters).
    @Test func everyServerEventIsDocumentedAndItsDataIsJSON() throws {
        let hostile = "Eggs \"soft\"\n\u{1}\\"
        let events: [ServerEvent] = [
            .change(generation: 7), .reminder(kind: .daily, prompt: hostile),
            .timerDone(timerId: UUID(), name: hostile),
        ]
        let yaml = try OpenAPIDocument.yaml()
        let enumLine = try #require(yaml.split(separator: "\n").first { $0.contains("event: {type: string, enum:") })
        for event in events {
            let lines = event.frame.split(separator: "\n")
            let name = try #require(lines.first { $0.hasPrefix("event: ") }).dropFirst("event: ".count)
            #expect(enumLine.contains(name), "event \(name) is not in openapi.yaml's enum")
            let data = try #require(lines.first { $0.hasPrefix("data: ") }).dropFirst("data: ".count)
            #expect(lines.count == 2, "one event: and one data: line, whatever the text holds")
            #expect((try? JSONSerialization.jsonObject(with: Data(data.utf8))) != nil, "\(data)")
        }
    }

    @Test func aChangeMadeByAnotherProcessReachesSubscribers() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("grove-live-\(UUID().uuidString)")
        let path = dir.appendingPathComponent("grove.sqlite").path
        let clock = TestClock(Date(timeIntervalSince1970: 1_747_000_000))
        let serverSide = try AppDatabase.open(path: path, environment: .test(clock: clock))
        let monitor = ChangeMonitor(path: serverSide.path)
        let events = monitor.subscribe()
        let polling = Task { try await monitor.run() }
        defer { polling.cancel() }
        // "Another process": a separate connection pool on the same file, like the CLI.
        let cli = try AppDatabase.open(path: path, environment: .test(clock: clock))
        // The monitor reads its first data_version (counted, not waited for by a guess).
        try await eventually { monitor.lookCount > 0 }
        try cli.focus.start()
        // Bounded by the suite's time limit alone: a busy machine may hold the watcher thread for
        // seconds; the idle test below counts that nothing polls, so the wake-up needs no stopwatch.
        try await eventually { monitor.generation > 0 }
        #expect(monitor.generation == 1)
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == .change(generation: 1))
    }

    /// The watcher sleeps in the kernel between commits: an idle server looks at the file only when it
    /// was written (counted, not timed), and a heartbeat goes out only while a page listens.
    @Test func anIdleMonitorDoesNotPoll() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("grove-idle-\(UUID().uuidString)")
        let path = dir.appendingPathComponent("grove.sqlite").path
        let clock = TestClock(Date(timeIntervalSince1970: 1_747_000_000))
        let serverSide = try AppDatabase.open(path: path, environment: .test(clock: clock))
        let monitor = ChangeMonitor(path: serverSide.path, heartbeat: .milliseconds(100))
        let watching = Task { try await monitor.run() }
        defer { watching.cancel() }
        try await eventually { monitor.lookCount > 0 }
        try await Task.sleep(for: .milliseconds(300))
        let settled = monitor.lookCount
        try await Task.sleep(for: .milliseconds(700))
        #expect(monitor.lookCount == settled, "no looks while nothing is written")
        let cli = try AppDatabase.open(path: path, environment: .test(clock: clock))
        try cli.focus.start()
        try await eventually { monitor.generation > 0 }
        #expect(monitor.generation == 1)
        #expect(monitor.lookCount > settled)
        // A listener gets heartbeats while the file is quiet.
        var iterator = monitor.subscribe().makeAsyncIterator()
        #expect(await iterator.next() == .heartbeat)
    }

    /// No write site tells the live layer by hand: a commit through the store does, whichever code made
    /// it (here a write that no route made at all).
    @Test func everyCommitReachesSubscribersByConstruction() async throws {
        let server = try await TestServer()
        let events = server.parts.monitor.subscribe()
        try server.database.timers.create(name: "Made outside any route", durationInSeconds: 60)
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == .change(generation: 1))
        try server.database.focus.start()
        #expect(await iterator.next() == .change(generation: 2))
        // A refused write commits nothing and says nothing.
        #expect(throws: (any Error).self) { try server.database.timers.create(name: "", durationInSeconds: 60) }
        #expect(server.parts.monitor.generation == 2)
    }

    @Test func remindersFireAtTheirInstantOnAnInjectedClock() async throws {
        let groveClock = TestClock(ISO8601DateFormatter().date(from: "2025-05-14T07:59:30Z")!)
        let database = try AppDatabase.inMemory(environment: .test(clock: groveClock))
        var settings = NotificationSettings.default
        settings.dailyEnabled = true
        settings.dailyTime = TimeOfDay(hour: 8, minute: 0)
        settings.monthlyEnabled = true
        settings.monthlyDay = 31
        settings.monthlyTime = TimeOfDay(hour: 9, minute: 0)
        try UserPreferencesRepository(database: database).updateNotificationSettings(settings)
        let fired = LockedBox<[(ReminderKind, Date)]>([])
        let service = ReminderService(database: database, clock: SimulatedClock(groveClock), maxSleep: .seconds(6 * 3600)) { kind, at in
            fired.mutate { $0.append((kind, at)) }
        }
        let running = Task { try await service.run() }
        // Simulated days pass in microseconds; stop once two weeks of reminders have fired.
        while groveClock.now < ISO8601DateFormatter().date(from: "2025-06-01T00:00:00Z")! { await Task.yield() }
        running.cancel()
        _ = try? await running.value
        let log = fired.value
        let f = ISO8601DateFormatter()
        #expect(log.first.map { "\($0.0) \(f.string(from: $0.1))" } == "daily 2025-05-14T08:00:00Z")
        #expect(log.filter { $0.0 == .daily && $0.1 < f.date(from: "2025-06-01T00:00:00Z")! }.count == 18, "once a day, 14 May to 31 May")
        #expect(Set(log.map { "\($0.0)\($0.1)" }).count == log.count, "never twice for the same instant")
        #expect(log.contains { $0.0 == .monthly && f.string(from: $0.1) == "2025-05-31T09:00:00Z" })
    }

    @Test func everyPageRendersAndTheGatewayShowsTodaysAttempts() async throws {
        let server = try await TestServer()
        try server.database.intentions.set("Breathe before email", scope: .day)
        _ = try server.database.timers.create(name: "Tea", durationInSeconds: 240, todos: ["Kettle"])
        try server.database.focus.log(start: server.clock.now - 3600, end: server.clock.now - 2100)
        try server.database.pause.setAppEnabled(id: "youtube", true)
        try await server.test { c in
            for page in [
                "/", "/focus", "/forest", "/stats", "/timers", "/intentions", "/themes", "/settings", "/pause", "/content",
                "/content?category=nature", "/pause/youtube", "/pause/instagram", "/login", "/review", "/review?week=last",
                "/review?week=2025-W10",
            ] {
                let reply = try await c.get(page)
                #expect(reply.status == 200, "\(page)")
                #expect(reply.contentType.hasPrefix("text/html"), "\(page)")
                #expect(reply.text.contains("</html>"), "\(page)")
            }
            #expect(try await c.get("/").text.contains("Breathe before email"))
            #expect(try await c.get("/review?week=someday").status == 400)
            #expect(try await c.get("/api/v1/review?week=2025-W99").problem["field"] as? String == "week")
            let review = try await c.get("/api/v1/review").object
            #expect(review["week"] as? String == "2025-W20" && (review["days"] as? [Any])?.count == 7 && review["trees"] as? Int == 1)
            #expect(
                try await c.get("/forest").text.range(
                    of: #"role="img" aria-label="(Pine|Oak|Birch), 25 min, "#, options: .regularExpression) != nil)
            #expect(try await c.get("/timers").text.contains("Kettle"))
            // The presets say what they are for (the seed's words); the intention form offers a font.
            #expect(try await c.get("/themes").text.contains(#"<p class="theme-description">Calm and peaceful</p>"#))
            #expect(try await c.get("/intentions").text.contains(#"<select name="customFont">"#))
            let stats = try await c.get("/stats").text
            #expect(stats.contains("<rect"))
            // The heatmap names its months, as the CLI's does (`YearHeatmap.monthLabels`).
            #expect(stats.contains(#"class="axis" data-month>Jun</text>"#) && stats.contains(#"data-month>May</text>"#), "\(stats)")
            #expect(try await c.get("/settings").text.contains(#"name="selectedCategories" value="stoicism" data-list checked"#))
            let nature = try await c.get("/content?category=nature").text
            #expect(nature.contains("Nature · shown 0 times") && !nature.contains("Stoicism · shown"))
            expectProblem(try await c.get("/content?category=poetry"), 400)
            let first = try await c.post("/api/v1/pause/sessions", #"{"appId": "youtube"}"#)
            let shown = try #require((first.object["session"] as? [String: Any])?["id"] as? String)
            #expect(try await c.get("/pause/youtube").text.contains("<strong id=\"attempt-count\">1</strong> time already today"))
            // The same pause shown again (a reload): the attempts before it, not counting itself.
            #expect(try await c.get("/pause/youtube?session=\(shown)").text.contains("First visit to YouTube"))
            // Proceed goes where the person was going, if that is one of the app's pages; anywhere else, home.
            #expect(
                try await c.get("/pause/youtube?to=https%3A%2F%2Fm.youtube.com%2Fwatch%3Fv%3Dabc").text.contains(
                    "data-target=\"https://m.youtube.com/watch?v=abc\""))
            #expect(
                try await c.get("/pause/youtube?to=https%3A%2F%2Fevil.example%2F").text.contains("data-target=\"https://www.youtube.com/\"")
            )
            // Usage per app and day, with its columns explained.
            let usage = try await c.get("/pause").text
            #expect(usage.contains("<td>YouTube</td><td>1</td><td>0</td><td>0</td>") && usage.contains("<dt>Waited out</dt>"))
            // A gate that is off lets the app through: no pause, no count.
            let open = try await c.get("/pause/instagram")
            #expect(open.text.contains("Instagram is not gated") && !open.text.contains("gateway-countdown"))
            expectProblem(try await c.get("/pause/ghost"), 404)
            // A person's browser gets a page, not JSON.
            let missing = try await c.get("/pause/ghost", headers: [.accept: "text/html,application/xhtml+xml"])
            #expect(
                missing.status == 404 && missing.contentType.hasPrefix("text/html")
                    && missing.text.contains("No app with id &quot;ghost&quot;"))
            let unknown = try await c.get("/no/such/page", headers: [.accept: "text/html"])
            #expect(unknown.status == 404 && unknown.text.contains("Nothing grows here") && unknown.text.contains("href=\"/\""))
            #expect(try await c.get("/static/app.js").contentType.hasPrefix("text/javascript"))
            expectProblem(try await c.get("/static/nope.js"), 404)
        }
    }
}

/// A value shared between a test and a callback.
final class LockedBox<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: T
    init(_ value: T) { storage = value }
    var value: T { lock.withLock { storage } }
    func mutate(_ body: (inout T) -> Void) { lock.withLock { body(&storage) } }
}

/// A clock whose sleeps move the store's test clock forward by the same amount and return at once:
/// wall time and sleeping stay in lockstep, with no race between a sleeper and the test.
struct SimulatedClock: Clock {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
    }

    let grove: GroveStore.TestClock
    let origin: Date
    init(_ grove: GroveStore.TestClock) {
        self.grove = grove
        origin = grove.now
    }

    var now: Instant {
        let seconds = grove.now.timeIntervalSince(origin)
        return Instant(offset: .milliseconds(Int64(seconds * 1000)))
    }
    var minimumResolution: Duration { .milliseconds(1) }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        let wait = now.duration(to: deadline)
        if wait > .zero {
            grove.advance(by: Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18)
        }
        await Task.yield()
    }
}
