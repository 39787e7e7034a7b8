import Foundation
import GroveCore
import GroveStore
import Testing

@testable import GroveServer

@Suite("Route groups carry how a route is answered: kept answers, the store's threads, memory")
struct RouteGroupsTests {
    /// Each route is kept as long as the group it joined says, and no longer; a route of no kept group
    /// is computed afresh each time.
    @Test func eachRouteIsKeptByTheGroupItJoined() async throws {
        let server = try await TestServer()
        let responses = server.parts.responses
        try await server.test { c in
            _ = try await c.get("/")  // the first view of a new store writes its defaults
            func kept(_ path: String) async throws -> Bool {
                _ = try await c.get(path)
                let hits = responses.hits
                _ = try await c.get(path)
                return responses.hits == hits + 1
            }
            for path in [
                "/timers", "/forest", "/settings", "/api/v1/review", "/api/v1/focus/stats", "/api/v1/focus/stats?tag=reading",
                "/api/v1/pause/apps", "/api/v1/pause/preferences", "/api/v1/preferences", "/api/v1/themes?kind=preset",
                "/api/v1/intentions/current", "/api/v1/focus/preferences", "/api/v1/pause/usage",
            ] {
                #expect(try await kept(path), "\(path) is kept")
            }
            for path in ["/api/v1/focus/current", "/api/v1/timers/runs", "/api/v1/export", "/pause/youtube", "/setup", "/login"] {
                #expect(try await !kept(path), "\(path) is answered afresh")
            }
        }
    }

    /// The running session's memo keeps the session between commits and computes its live figures on
    /// every request.
    @Test func theCurrentSessionStaysLiveBetweenCommits() async throws {
        let server = try await TestServer()
        let clock = server.clock
        try await server.test { c in
            let started = try await c.post("/api/v1/focus/start", #"{"plannedDuration": 600}"#)
            #expect(started.status == 201)
            let first = try await c.get("/api/v1/focus/current").object["remaining"] as? Double
            clock.advance(by: 30)
            let later = try await c.get("/api/v1/focus/current").object["remaining"] as? Double
            #expect(first == 600 && later == 570, "the memo keeps the session, not its countdown")
            #expect(try await c.post("/api/v1/focus/abandon").status == 200)
            #expect(try await c.get("/api/v1/focus/current").object["remaining"] == nil, "a commit ends the memo at once")
        }
    }
}
