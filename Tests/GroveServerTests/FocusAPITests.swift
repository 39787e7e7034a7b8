import Foundation
import GroveCore
import GroveStore
import Hummingbird
import HummingbirdTesting
import Testing

@testable import GroveServer

@Suite("API: focus")
struct FocusAPITests {
    @Test func sessionLifecycle() async throws {
        let server = try await TestServer()
        let clock = server.clock
        try await server.test { c in
            #expect(try await c.get("/api/v1/focus/current").object["session"] == nil)
            let started = try await c.post("/api/v1/focus/start", #"{"plannedDuration": 600}"#)
            #expect(started.status == 201)
            #expect((started.object["session"] as? [String: Any])?["state"] as? String == "active")
            #expect(started.object["remaining"] as? Double == 600)
            expectProblem(try await c.post("/api/v1/focus/start"), 409, field: "state", detail: "already running")
            expectProblem(try await c.post("/api/v1/focus/resume"), 409, field: "state")
            clock.advance(by: 120)
            let current = try await c.get("/api/v1/focus/current")
            #expect(current.object["remaining"] as? Double == 480)
            #expect(current.object["treeStage"] as? Int == 1)
            #expect(try await c.post("/api/v1/focus/pause").status == 200)
            #expect(try await c.post("/api/v1/focus/resume").status == 200)
            #expect((try await c.post("/api/v1/focus/abandon").object["session"] as? [String: Any])?["state"] as? String == "abandoned")
            expectProblem(try await c.post("/api/v1/focus/pause"), 409, detail: "no active or paused")
            expectProblem(try await c.post("/api/v1/focus/start", #"{"plannedDuration": 0}"#), 422, field: "plannedDuration")
            expectProblem(try await c.post("/api/v1/focus/start", #"{"plannedDuration": "long"}"#), 400, field: "plannedDuration")
            expectProblem(try await c.post("/api/v1/focus/start", "{not json"), 400)
        }
    }

    @Test func aSessionCompletesAtItsInstantAndStatsFollow() async throws {
        let server = try await TestServer()
        let clock = server.clock
        try await server.test { c in
            _ = try await c.post("/api/v1/focus/start", #"{"plannedDuration": 60}"#)
            let before = try await c.get("/api/v1/focus/stats")
            #expect(before.object["totalTrees"] as? Int == 0)
            clock.advance(by: 3600)
            #expect(try await c.get("/api/v1/focus/current").object["session"] == nil)
            let stats = try await c.get("/api/v1/focus/stats")
            #expect(stats.object["totalTrees"] as? Int == 1, "the cache expired at the session's due instant")
            #expect(stats.object["currentStreak"] as? Int == 1)
            let forest = try await c.get("/api/v1/focus/forest")
            #expect(forest.array.first?["endTime"] as? String == "2025-05-14T09:01:00.000Z")
        }
    }

    @Test func tagsOnStartLogAndRetagFilterStatsDailyWindowAndExport() async throws {
        let server = try await TestServer()
        try await server.test { c in
            let logged = try await c.post(
                "/api/v1/focus/log",
                #"{"start": "2025-05-13T08:00:00Z", "end": "2025-05-13T08:25:00Z", "tags": ["essay ", "Deep work", "essay"]}"#)
            #expect(logged.status == 201 && logged.object["tags"] as? [String] == ["Deep work", "essay"])
            let id = try #require(logged.object["id"] as? String)
            _ = try await c.post(
                "/api/v1/focus/log", #"{"start": "2025-05-13T09:00:00Z", "end": "2025-05-13T09:25:00Z", "tags": ["code"]}"#)
            let started = try await c.post("/api/v1/focus/start", #"{"plannedDuration": 600, "tags": ["essay"]}"#)
            #expect((started.object["session"] as? [String: Any])?["tags"] as? [String] == ["essay"])
            _ = try await c.post("/api/v1/focus/abandon")

            let retagged = try await c.put("/api/v1/focus/sessions/\(id)/tags", #"{"tags": ["code"]}"#)
            #expect(retagged.status == 200 && retagged.object["tags"] as? [String] == ["code"])
            #expect(
                try await c.get("/api/v1/focus/tags").array.map { "\($0["tag"] ?? "") \($0["trees"] ?? "") \($0["abandoned"] ?? "")" } == [
                    "essay 0 1", "code 2 0",
                ], "most recently used first")
            let stats = try await c.get("/api/v1/focus/stats?tag=code")
            #expect(stats.object["totalTrees"] as? Int == 2 && stats.object["totalFocusTime"] as? Double == 3000)
            #expect(try await c.get("/api/v1/focus/stats").object["totalTrees"] as? Int == 2)
            #expect(
                try await c.get("/api/v1/focus/daily?from=2025-05-13&to=2025-05-14&tag=essay").array.map { $0["abandoned"] as? Int } == [1])
            let window = try await c.get("/api/v1/focus/window?days=3&tag=code")
            let days = window.object["days"] as? [[String: Any]]
            #expect(days?.count == 1 && (days?.first?["sessions"] as? [Any])?.count == 2)
            let csv = try await c.get("/api/v1/export?format=csv&tag=essay").text
            #expect(csv.split(separator: "\r\n").count == 2 && csv.contains(",abandoned,"))
            // Emptying removes them; every rule is a 4xx naming the field, and nothing changes.
            #expect(try await c.put("/api/v1/focus/sessions/\(id)/tags", #"{"tags": []}"#).object["tags"] == nil)
            expectProblem(try await c.put("/api/v1/focus/sessions/\(id)/tags", #"{"tags": ["a,b"]}"#), 422, field: "tags", detail: "comma")
            expectProblem(try await c.put("/api/v1/focus/sessions/\(id)/tags", #"{"tags": "essay"}"#), 400, field: "tags")
            expectProblem(try await c.put("/api/v1/focus/sessions/\(UUID().uuidString)/tags", #"{"tags": []}"#), 404)
            expectProblem(
                try await c.post("/api/v1/focus/start", #"{"tags": ["\#(String(repeating: "x", count: 41))"]}"#), 422, field: "tags")
            #expect(try await c.get("/api/v1/focus/current").object["session"] == nil, "a refused start starts nothing")
            for bad in ["stats?tag=", "stats?tag=a,b", "daily?tag=%09", "window?tag=a,b", "window?days=0"] {
                #expect(try await c.get("/api/v1/focus/\(bad)").status == 400, "\(bad)")
            }
            #expect(try await c.get("/api/v1/export?tag=a,b").status == 400)
        }
    }

    @Test func logListDeleteDailyPreferencesBreak() async throws {
        let server = try await TestServer()
        try await server.test { c in
            let logged = try await c.post(
                "/api/v1/focus/log",
                #"{"start": "2025-05-13T08:00:00Z", "end": "2025-05-13T08:30:00Z", "pauses": [{"start": "2025-05-13T08:10:00Z", "end": "2025-05-13T08:15:00Z"}]}"#
            )
            #expect(logged.status == 201)
            #expect(logged.object["duration"] as? Double == 1500)
            let id = try #require(logged.object["id"] as? String)
            expectProblem(
                try await c.post("/api/v1/focus/log", #"{"start": "2025-05-13T08:00:00Z", "end": "2025-05-13T07:00:00Z"}"#), 422,
                field: "endTime")
            expectProblem(try await c.post("/api/v1/focus/log", #"{"start": "2025-05-13T08:00:00Z"}"#), 400, field: "end")
            expectProblem(
                try await c.post(
                    "/api/v1/focus/log",
                    #"{"start": "2025-05-13T08:00:00Z", "end": "2025-05-13T08:25:00Z", "timeZoneIdentifier": "Mars/Base"}"#), 422,
                field: "timeZoneIdentifier")
            #expect(try await c.get("/api/v1/focus/sessions").array.count == 1)
            #expect(try await c.get("/api/v1/focus/sessions?state=completed&limit=5").array.count == 1)
            #expect(try await c.get("/api/v1/focus/sessions?state=abandoned").array.isEmpty)
            expectProblem(
                try await c.get("/api/v1/focus/sessions?state=sleeping"), 400, field: "state",
                detail: #"state must be one of active, paused, completed, abandoned (got "sleeping")"#)
            // The core's vocabulary, read as the CLI reads it: any case.
            #expect(try await c.get("/api/v1/focus/sessions?state=Abandoned").status == 200)
            expectProblem(try await c.get("/api/v1/focus/sessions?limit=zero"), 400, field: "limit")
            #expect(try await c.get("/api/v1/focus/sessions/\(id)").object["id"] as? String == id)
            expectProblem(try await c.get("/api/v1/focus/sessions/\(UUID().uuidString)"), 404)
            expectProblem(try await c.get("/api/v1/focus/sessions/not-a-uuid"), 404)
            let daily = try await c.get("/api/v1/focus/daily?from=2025-05-01&to=2025-05-14")
            #expect(daily.array.first?["day"] as? String == "2025-05-13")
            expectProblem(try await c.get("/api/v1/focus/daily?from=May"), 400, field: "from")
            expectProblem(try await c.get("/api/v1/focus/daily?from=2025-05-14&to=2025-05-01"), 400, field: "from")
            #expect(try await c.get("/api/v1/focus/forest?limit=1").array.count == 1)
            expectProblem(try await c.get("/api/v1/focus/forest?limit=0"), 400, field: "limit")
            #expect(try await c.delete("/api/v1/focus/sessions/\(id)").status == 204)
            expectProblem(try await c.delete("/api/v1/focus/sessions/\(id)"), 404)
            #expect(try await c.get("/api/v1/focus/preferences").object["focusDuration"] as? Double == 1500)
            let prefs = try await c.put(
                "/api/v1/focus/preferences",
                #"{"focusDuration": 3000, "shortBreakDuration": 600, "longBreakDuration": 1800, "longBreakInterval": 3}"#)
            #expect(prefs.object["focusDuration"] as? Double == 3000)
            expectProblem(
                try await c.put(
                    "/api/v1/focus/preferences",
                    #"{"focusDuration": 3000, "shortBreakDuration": 600, "longBreakDuration": 1800, "longBreakInterval": 30}"#), 422,
                field: "longBreakInterval")
            #expect(try await c.get("/api/v1/focus/break").object["kind"] as? String == "short")
        }
    }
}
