import Foundation
import GroveCore
import GroveStore
import Testing

@testable import GroveServer

@Suite("Read routes answered from memory: exactly until the data or the time says otherwise")
struct ResponseCacheTests {
    @Test func aKeptAnswerGoesWithAnyCommitTheOpenSessionsDueInstantAndMidnight() async throws {
        let server = try await TestServer(at: "2025-05-14T23:00:00Z")
        let db = server.database, clock = server.clock, monitor = server.parts.monitor
        let responses = server.parts.responses
        _ = try db.focus.log(start: server.clock.now.addingTimeInterval(-3600), end: server.clock.now.addingTimeInterval(-2100))
        try await server.test { c in
            let first = try await c.get("/api/v1/focus/sessions?limit=20")
            let generation = monitor.freshGeneration
            let hits = responses.hits
            let again = try await c.get("/api/v1/focus/sessions?limit=20")
            #expect(responses.hits == hits + 1 && again.body == first.body && again.status == 200)
            #expect(monitor.freshGeneration == generation, "reading commits nothing")
            #expect(again.contentType == first.contentType)
            // Any commit: answered afresh.
            _ = try db.focus.log(start: clock.now.addingTimeInterval(-1800), end: clock.now.addingTimeInterval(-300))
            #expect(try await c.get("/api/v1/focus/sessions?limit=20").array.count == 2)
            // A running session completes at its instant with no commit: the kept answer goes with it.
            let running = try db.focus.start(plannedDuration: 60)
            #expect(try await c.get("/api/v1/focus/sessions?limit=20").array.first?["state"] as? String == "active")
            clock.advance(by: 61)
            let settled = try await c.get("/api/v1/focus/sessions?limit=20").array.first
            #expect(settled?["id"] as? String == running.id.uuidString && settled?["state"] as? String == "completed")
        }
    }

    @Test func answersAboutTodayEndAtTheStoresMidnightRemindersAtTheMinuteCountdownsAtTheSecond() throws {
        let db = try AppDatabase.inMemory(environment: .test(clock: TestClock(instant("2025-05-14T21:59:30.250Z"))))
        try db.intentions.changePreferences { $0.timeZoneIdentifier = "Europe/Berlin" }
        let now = db.environment.now()
        #expect(try ResponseCacheMiddleware.expiry(.data, now: now, database: db) == nil)
        #expect(
            try ResponseCacheMiddleware.expiry(.day, now: now, database: db) == instant("2025-05-14T22:00:00Z"),
            "midnight in Berlin (UTC+2)")
        #expect(try ResponseCacheMiddleware.expiry(.minute, now: now, database: db) == instant("2025-05-14T22:00:00Z"))
        #expect(try ResponseCacheMiddleware.expiry(.second, now: now, database: db) == instant("2025-05-14T21:59:31Z"))
        let session = try db.focus.start(plannedDuration: 60)
        #expect(try ResponseCacheMiddleware.expiry(.data, now: now, database: db) == session.dueAt, "the open session's due instant")
    }

    @Test func onlySuccessIsKeptAndMemoryStaysBoundedWhateverIsAsked() async throws {
        let server = try await TestServer()
        let responses = server.parts.responses
        try await server.test { c in
            let hits = responses.hits
            expectProblem(try await c.get("/api/v1/focus/sessions?limit=-1"), 400)
            expectProblem(try await c.get("/api/v1/focus/sessions?limit=-1"), 400)
            #expect(responses.hits == hits, "a problem is never kept")
            for n in 0..<300 { _ = try await c.get("/api/v1/focus/sessions?limit=\(n % 200 + 1)&q=\(n)") }
            #expect(responses.footprint.entries <= responses.maxEntries && responses.footprint.bytes <= responses.maxBytes)
            // Routes not on the list are never kept (the run's countdown is computed per request).
            let before = responses.hits
            _ = try await c.get("/api/v1/timers/runs")
            _ = try await c.get("/api/v1/timers/runs")
            #expect(responses.hits == before)
        }
    }

    @Test func pagesHoldForTheSecondTheyShow() async throws {
        let server = try await TestServer()
        let responses = server.parts.responses, clock = server.clock
        try await server.test { c in
            _ = try await c.get("/")  // the first view of a new store writes its defaults
            let first = try await c.get("/")
            let hits = responses.hits
            #expect(try await c.get("/").body == first.body && responses.hits == hits + 1)
            clock.advance(by: 1)
            _ = try await c.get("/")
            #expect(responses.hits == hits + 1, "a new second renders afresh")
        }
    }
}

private func instant(_ text: String) -> Date {
    let f = ISO8601DateFormatter()
    f.formatOptions = text.contains(".") ? [.withInternetDateTime, .withFractionalSeconds] : [.withInternetDateTime]
    return f.date(from: text) ?? Date(timeIntervalSince1970: 0)
}

@Suite("The running session's JSON written by hand is the encoder's, byte for byte")
struct FocusStatusJSONTests {
    @Test func activePausedAndEveryInstantMatchTheEncoder() async throws {
        let server = try await TestServer()
        let db = server.database, clock = server.clock
        let encoder = GroveExport.makeEncoder(pretty: false)
        let session = try db.focus.start(plannedDuration: 1500, tags: ["essay"])
        for offset in [0.0, 0.001, 1, 59.999, 333.333, 1499.75, 1500, 1600] {
            let fast = try FocusStatusJSON(session, anchor: nil).encoded(now: session.startTime.addingTimeInterval(offset))
            let slow = try encoder.encode(FocusStatusReport(session, now: session.startTime.addingTimeInterval(offset)))
            #expect(String(decoding: fast, as: UTF8.self) == String(decoding: slow, as: UTF8.self), "at +\(offset) s")
        }
        clock.advance(by: 100)
        let paused = try db.focus.pause()
        let fast = try FocusStatusJSON(paused, anchor: nil).encoded(now: clock.now)
        #expect(fast == (try encoder.encode(FocusStatusReport(paused, now: clock.now))))
        let expected = try encoder.encode(FocusStatusReport(paused, now: clock.now))
        try await server.test { c in
            let reply = try await c.get("/api/v1/focus/current")
            #expect(reply.body == expected)
        }
        _ = try db.focus.abandon()
        try await server.test { c in
            let reply = try await c.get("/api/v1/focus/current")
            #expect(reply.text == "{}")
        }
    }
}

@Suite("The web forest: a page of whole days, about 500 trees at most")
struct ForestPageTests {
    static func trees(_ page: String) -> Int { page.components(separatedBy: "role=\"img\" aria-label=").count - 1 }

    @Test func aHeavyWeekIsPagedByTreesNotOnlyByDays() async throws {
        let server = try await TestServer(at: "2025-05-14T23:00:00Z")
        let db = server.database
        // Five days of 260 five-minute sessions each (the last ending before "now"): each day draws its
        // 150 newest trees (`ForestWindow.treesDrawnPerDay`) and says how many more.
        for day in 0..<5 {
            let midnight = server.clock.now.addingTimeInterval(-23 * 3600 - Double(day) * 86_400)
            for n in 0..<260 {
                let start = midnight.addingTimeInterval(Double(n) * 300)
                _ = try db.focus.log(start: start, end: start.addingTimeInterval(240))
            }
        }
        try await server.test { c in
            let page = try await c.get("/forest").text
            #expect(Self.trees(page) == 450, "three days: a fourth would pass 500 trees")
            #expect(page.components(separatedBy: "+110 more").count - 1 == 3)
            #expect(page.contains("id=\"forest-older\" href=\"/forest?before=2025-05-12\""))
            let older = try await c.get("/forest?before=2025-05-12").text
            #expect(Self.trees(older) == 300)
        }
    }
}
