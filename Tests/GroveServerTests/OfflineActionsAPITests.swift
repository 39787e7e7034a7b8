import Foundation
import GroveCore
import GroveStore
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import GroveServer

/// The web app's offline queue, as the server sees it: each change carries its own
/// `Idempotency-Key` (applied once, however often it arrives) and the instant it was made.
@Suite("API: changes made offline — applied once, counted from when they were made")
struct OfflineActionsAPITests {
    static func key(_ value: String) -> HTTPFields { [HTTPField.Name("Idempotency-Key")!: value] }

    @Test func aChangeSentTwiceIsAppliedOnce() async throws {
        let server = try await TestServer()
        let tea = try server.database.timers.create(name: "Tea", durationInSeconds: 180)
        let kettle = try server.database.timers.addTodo(timerID: tea.id, text: "Kettle")
        let toggle = "/api/v1/timers/\(tea.id)/todos/\(kettle.id)/toggle"
        let database = server.database
        try await server.test { c in
            let first = try await c.post(toggle, headers: Self.key("tick-kettle-1"))
            #expect(first.status == 200 && first.object["isCompleted"] as? Bool == true)
            // The reply was lost on the train: the queue sends it again.
            let again = try await c.post(toggle, headers: Self.key("tick-kettle-1"))
            #expect(again.status == 200 && again.object["replayed"] as? Bool == true, "\(again.text)")
            #expect(try database.timers.find(id: tea.id)?.todoItems.first?.isCompleted == true, "ticked once, not ticked and unticked")
            // The same key for another request is refused by name; a malformed one too.
            expectProblem(try await c.post("/api/v1/focus/start", headers: Self.key("tick-kettle-1")), 422, field: "Idempotency-Key")
            expectProblem(try await c.post(toggle, headers: Self.key("x")), 400, field: "Idempotency-Key")
            #expect(try database.focus.current() == nil)
            // Reads pass by: a key on a GET is nobody's business.
            #expect(try await c.get("/api/v1/timers/runs", headers: Self.key("tick-kettle-1")).status == 200)
        }
    }

    @Test func aRefusedChangeIsRefusedAgainAndThenApplied() async throws {
        let server = try await TestServer()
        try await server.test { c in
            expectProblem(try await c.post("/api/v1/focus/pause", headers: Self.key("pause-00001")), 409)
            #expect(try await c.post("/api/v1/focus/start", #"{"plannedDuration": 1500}"#).status == 201)
            let paused = try await c.post("/api/v1/focus/pause", headers: Self.key("pause-00001"))
            #expect(paused.status == 200 && (paused.object["session"] as? [String: Any])?["state"] as? String == "paused", "\(paused.text)")
        }
    }

    @Test func aSessionStartedOfflineCountsFromWhenItWasStarted() async throws {
        let server = try await TestServer(at: "2025-05-14T09:00:00Z")
        let (clock, database) = (server.clock, server.database)
        try await server.test { c in
            // Started on the train at 08:50, paused 08:55–08:58, sent at 09:00.
            let started = try await c.post(
                "/api/v1/focus/start", #"{"plannedDuration": 1500, "startedAt": "2025-05-14T08:50:00Z"}"#,
                headers: Self.key("start-train-1"))
            #expect(started.status == 201, "\(started.text)")
            #expect(try await c.post("/api/v1/focus/pause", #"{"at": "2025-05-14T08:55:00Z"}"#).status == 200)
            #expect(try await c.post("/api/v1/focus/resume", #"{"at": "2025-05-14T08:58:00Z"}"#).status == 200)
            let session = try #require(try database.focus.current())
            #expect(session.startTime == ISO8601DateFormatter().date(from: "2025-05-14T08:50:00Z"))
            #expect(session.pausedDuration == 180)
            let current = try await c.get("/api/v1/focus/current")
            #expect(current.object["focusTime"] as? Double == 420, "5 + 2 minutes of focus by 09:00: \(current.text)")
            // It completes at 08:50 + 25 min + the 3-minute pause.
            clock.advance(by: 18 * 60 - 1)
            #expect(try database.focus.current()?.state == .active)
            clock.advance(by: 1)
            try database.focus.settle()
            #expect(try database.focus.session(idPrefix: session.id.uuidString).state == .completed)
            // Instants out of bounds are refused by name, and change nothing.
            expectProblem(
                try await c.post("/api/v1/focus/start", #"{"startedAt": "2025-05-14T10:00:00Z"}"#), 422, field: "startedAt",
                detail: "future")
            expectProblem(
                try await c.post("/api/v1/focus/start", #"{"startedAt": "2025-05-01T10:00:00Z"}"#), 422, field: "startedAt",
                detail: "7 days")
            // A start that would overlap the session just recorded is refused.
            expectProblem(try await c.post("/api/v1/focus/start", #"{"startedAt": "2025-05-14T09:10:00Z"}"#), 422, detail: "overlaps")
            #expect(try database.focus.current() == nil)
        }
    }

    @Test func aTimerStartedOfflineCountsFromWhenItWasStarted() async throws {
        let server = try await TestServer(at: "2025-05-14T09:00:00Z")
        let tea = try server.database.timers.create(name: "Tea", durationInSeconds: 180)
        try await server.test { c in
            let started = try await c.post("/api/v1/timers/\(tea.id)/run", #"{"at": "2025-05-14T08:59:00Z"}"#)
            #expect(started.status == 201 && started.object["remaining"] as? Double == 120, "\(started.text)")
            let paused = try await c.post("/api/v1/timers/\(tea.id)/run/pause", #"{"at": "2025-05-14T08:59:30Z"}"#)
            #expect(paused.object["state"] as? String == "paused" && paused.object["remaining"] as? Double == 150, "\(paused.text)")
            expectProblem(try await c.post("/api/v1/timers/\(tea.id)/run/resume", #"{"at": "2025-05-15T09:00:00Z"}"#), 422, field: "at")
        }
    }
}
