import Foundation
import GroveCore
import GroveRemote
import GroveStore
import GroveSystem
import GroveTestSupport
import Hummingbird
import Testing

@testable import GroveServer

/// Web Push from `grove serve` through a stand-in push service on 127.0.0.1 that checks the VAPID
/// token and decrypts with the subscription's private key, as a phone's push service and browser would.
@Suite("Web Push: a phone with its page closed hears a tree, a timer, a reminder", .timeLimit(.minutes(5)))
struct WebPushTests {
    struct Notice: Decodable, Equatable { var title: String; var body: String; var link: String; var tag: String }

    /// The server's push deadline past anything a loaded machine takes to reach the stand-in (which
    /// answers): a test that waits for a message must not race the product's 10 s.
    static var patient: ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.pushDeadline = .seconds(50)
        return configuration
    }

    /// The paths of the endpoints still subscribed.
    static func subscribedPaths(_ database: AppDatabase) throws -> [String] {
        try database.pushSubscriptions().map(\.endpoint).map { URL(string: $0)?.path ?? "" }
    }

    static func subscribe(_ c: Client, _ standIn: StandInPushService, port: Int, path: String) async throws -> Client.Reply {
        try await c.post(
            "/api/v1/push/subscriptions",
            #"{"endpoint": "http://127.0.0.1:\#(port)/\#(path)", "keys": {"p256dh": "\#(standIn.p256dh)", "auth": "\#(standIn.authSecret)"}}"#
        )
    }

    @Test func aCompletedSessionRingsThePhoneOnceAndOpensTheForest() async throws {
        let server = try await TestServer(configuration: Self.patient)
        let standIn = StandInPushService()
        let (database, clock, push) = (server.database, server.clock, server.parts.push)
        // No desktop here: the server rings only because a browser subscribed.
        let monitor = server.parts.monitor
        let notices = ServerNotices(
            monitor: monitor, notifier: DesktopNotifier(environment: ["PATH": ""]), push: push, hold: nil, onReminder: nil)
        let alarm = TimerAlarmService(
            database: database, clock: SimulatedClock(clock), onDone: notices.timerDone, onFocusDone: notices.treePlanted,
            onBreakOver: notices.breakOver, rings: notices.rings)
        try await server.test { c in
            try await withLiveServer(standIn.router) { service in
                let session = try database.focus.start(plannedDuration: 120)
                clock.advance(by: 120)
                _ = try await alarm.tick()
                try database.focus.settle()
                #expect(try database.focus.claimNotice(sessionId: session.id), "no browser subscribed: the server left it to a page")

                #expect(try await Self.subscribe(c, standIn, port: service.port, path: "ok/phone").status == 201)
                let key = try await c.get("/api/v1/push/key").object["publicKey"] as? String
                #expect(key.flatMap { Data(base64URLEncoded: $0) }?.count == 65)
                let next = try database.focus.start(plannedDuration: 120)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { try await push.run() }
                    clock.advance(by: 120)
                    _ = try await alarm.tick()
                    _ = try await alarm.tick()
                    var messages = standIn.messages.makeAsyncIterator()
                    let message = try #require(await messages.next())
                    let notice = try JSONDecoder().decode(Notice.self, from: message.plaintext)
                    #expect(
                        notice == Notice(title: "Tree planted!", body: "Great focus session!", link: "/forest", tag: "focus-\(next.id)"))
                    #expect(
                        message.claims["aud"] == "http://127.0.0.1:\(service.port)" && message.claims["sub"] == "mailto:grove@localhost")
                    #expect(message.ttl == "3600")
                    // The server claimed it: the page that asks next stays quiet.
                    #expect(try !database.focus.claimNotice(sessionId: next.id))
                    // Once: the next message the phone gets is the test's, not the tree again.
                    let test = try await c.post("/api/v1/push/test")
                    #expect(test.object["delivered"] as? Int == 1, "\(test.text)")
                    let after = try #require(await messages.next())
                    #expect(
                        try JSONDecoder().decode(Notice.self, from: after.plaintext).tag == "test",
                        "\(String(decoding: after.plaintext, as: UTF8.self))")
                    group.cancelAll()
                }
            }
        }
    }

    @Test func aGoneSubscriptionIsDroppedAndAHangingServiceDelaysNoOtherPhone() async throws {
        let server = try await TestServer()
        let standIn = StandInPushService()
        let database = server.database
        // No deadline is reached here (a loaded machine answers late, not never): the tablet's service
        // holds its request until the phone has its message, and is then let go.
        let push = WebPushService(database: database, subject: "mailto:grove@localhost", deadline: .seconds(600))
        try await server.test { c in
            try await withLiveServer(standIn.router) { service in
                for path in ["hang/tablet", "gone/old-phone", "ok/phone"] {
                    #expect(try await Self.subscribe(c, standIn, port: service.port, path: path).status == 201)
                }
                let outcomes = Task { await push.deliver(PushNotice(title: "Tea is done", body: "", link: "/timers", tag: "t")) }
                // The phone has its message while the tablet's push service still holds its request.
                var held = standIn.held.makeAsyncIterator()
                var messages = standIn.messages.makeAsyncIterator()
                #expect(await held.next() == "/hang/tablet")
                #expect(try #require(await messages.next()).path == "/ok/phone")
                standIn.release()
                let results = await outcomes.value
                #expect(results.contains(.delivered(endpoint: "http://127.0.0.1:\(service.port)/ok/phone")))
                #expect(results.contains(.gone(endpoint: "http://127.0.0.1:\(service.port)/gone/old-phone")))
                #expect(results.contains(.delivered(endpoint: "http://127.0.0.1:\(service.port)/hang/tablet")))
                let left = try Self.subscribedPaths(database)
                #expect(left.sorted() == ["/hang/tablet", "/ok/phone"], "the expired one is dropped")
            }
        }
    }

    /// A push service that never answers fails at the deadline — the only way its request can end
    /// here, however loaded the machine — and its subscription is only counted, not dropped.
    @Test func aServiceThatNeverAnswersFailsAtTheDeadlineAndIsKept() async throws {
        let server = try await TestServer()
        let standIn = StandInPushService()
        let database = server.database
        let push = WebPushService(database: database, subject: "mailto:grove@localhost", deadline: .milliseconds(200))
        try await server.test { c in
            try await withLiveServer(standIn.router) { service in
                #expect(try await Self.subscribe(c, standIn, port: service.port, path: "hang/tablet").status == 201)
                let results = await push.deliver(PushNotice(title: "Tea is done", body: "", link: "/timers", tag: "t"))
                standIn.release()
                #expect(results.count == 1)
                #expect(results.contains { if case .failed(let endpoint, _) = $0 { endpoint.hasSuffix("/hang/tablet") } else { false } })
                let left = try Self.subscribedPaths(database)
                #expect(left == ["/hang/tablet"], "a slow one only counted")
            }
        }
    }

    @Test func subscriptionsAreCheckedByFieldAndListedAndEnded() async throws {
        let server = try await TestServer(configuration: Self.patient)
        let standIn = StandInPushService()
        let database = server.database
        try await server.test { c in
            func subscribe(_ endpoint: String, p256dh: String? = nil, auth: String? = nil) async throws -> Client.Reply {
                let (key, secret) = (p256dh ?? standIn.p256dh, auth ?? standIn.authSecret)
                return try await c.post(
                    "/api/v1/push/subscriptions", #"{"endpoint": "\#(endpoint)", "keys": {"p256dh": "\#(key)", "auth": "\#(secret)"}}"#)
            }
            expectProblem(try await subscribe("ftp://push.example/x"), 422, field: "endpoint")
            expectProblem(try await subscribe("http://push.example/x"), 422, field: "endpoint", detail: "https")
            expectProblem(try await subscribe("https://push.example/x", p256dh: "AAAA"), 422, field: "keys.p256dh")
            expectProblem(
                try await subscribe("https://push.example/x", p256dh: String(repeating: "B", count: 87)), 422, field: "keys.p256dh")
            expectProblem(try await subscribe("https://push.example/x", auth: "short"), 422, field: "keys.auth")
            #expect(try database.pushSubscriptions().isEmpty, "nothing refused is kept")
            #expect(try await subscribe("https://push.example/x").status == 201)
            #expect(try await subscribe("https://push.example/x").status == 201, "the same browser again replaces itself")
            let listed = try await c.get("/api/v1/push/subscriptions").array
            #expect(listed.count == 1 && listed.first?["service"] as? String == "https://push.example")
            for n in 1..<AppDatabase.pushSubscriptionLimit { #expect(try await subscribe("https://push.example/\(n)").status == 201) }
            expectProblem(try await subscribe("https://push.example/one-too-many"), 422, field: "endpoint", detail: "At most")
            #expect(try await c.delete("/api/v1/push/subscriptions?endpoint=https://push.example/x").status == 204)
            #expect(try database.pushSubscriptions().count == AppDatabase.pushSubscriptionLimit - 1)
            // The key is made once and kept: subscriptions stay valid across restarts.
            #expect(try database.vapidKey().rawRepresentation == database.vapidKey().rawRepresentation)
        }
    }
}
