import Foundation
import GroveCore
import GroveStore
import Hummingbird
import HummingbirdTesting
import Testing

@testable import GroveServer

@Suite("API: timer runs, and the alarm that announces them once")
struct TimerRunAPITests {
    @Test func aRunStartedThroughTheAPILivesInTheStore() async throws {
        let server = try await TestServer()
        let tea = try server.database.timers.create(name: "Tea", durationInSeconds: 180)
        let (clock, database) = (server.clock, server.database)
        try await server.test { c in
            #expect(try await c.get("/api/v1/timers/runs").array.isEmpty)
            let started = try await c.post("/api/v1/timers/\(tea.id)/run")
            #expect(
                started.status == 201 && started.object["state"] as? String == "running" && started.object["remaining"] as? Double == 180)
            clock.advance(by: 30)
            let paused = try await c.post("/api/v1/timers/\(tea.id)/run/pause")
            #expect(paused.object["state"] as? String == "paused" && paused.object["remaining"] as? Double == 150)
            expectProblem(try await c.post("/api/v1/timers/\(tea.id)/run/pause"), 409, field: "state", detail: "not running")
            clock.advance(by: 300)
            #expect(try await c.post("/api/v1/timers/\(tea.id)/run/resume").object["remaining"] as? Double == 150)
            // What the page reloaded (or the CLI) reads is the same run.
            #expect(try database.timers.run(timerId: tea.id)?.remaining == 150)
            let page = try await c.get("/")
            #expect(page.text.contains("data-testid=\"timer-runs\"") && page.text.contains("02:30"))
            #expect(try await c.delete("/api/v1/timers/\(tea.id)/run").status == 204)
            #expect(try await c.delete("/api/v1/timers/\(tea.id)/run").status == 204, "stopping nothing is the same result")
            expectProblem(try await c.post("/api/v1/timers/\(tea.id)/run/resume"), 409, field: "state", detail: "Tea is not counting down")
            expectProblem(try await c.post("/api/v1/timers/\(UUID())/run"), 404)
            expectProblem(try await c.post("/api/v1/timers/not-an-id/run"), 404)
            #expect(try await c.post("/api/v1/timers/samples").object["added"] as? Int == 4)
            #expect(try await c.post("/api/v1/timers/samples").object["added"] as? Int == 0, "loading twice adds nothing")
        }
    }

    @Test func theAlarmAnnouncesEachFinishedRunOnceAndNeverWhatATerminalAnnounced() async throws {
        let server = try await TestServer()
        let tea = try server.database.timers.create(name: "Tea", durationInSeconds: 60)
        let eggs = try server.database.timers.create(name: "Eggs \"soft\"", durationInSeconds: 420)
        let announced = LockedBox<[String]>([])
        let alarm = TimerAlarmService(database: server.database, clock: SimulatedClock(server.clock)) { run in
            announced.mutate { $0.append(run.name) }
        }
        try server.database.timers.start(timerId: tea.id)
        try server.database.timers.start(timerId: eggs.id)
        #expect(try await alarm.tick() == .seconds(1), "nothing due: a second at most, to see runs started elsewhere")
        server.clock.advance(by: 59.5)
        #expect(try await alarm.tick() == .milliseconds(500), "sleeps until Tea is due")
        server.clock.advance(by: 0.5)
        _ = try await alarm.tick()
        _ = try await alarm.tick()
        #expect(announced.value == ["Tea"])
        // A terminal following Eggs noticed first: the server stays quiet about it.
        server.clock.advance(by: 360)
        #expect(try server.database.timers.claimNotice(timerId: eggs.id))
        _ = try await alarm.tick()
        #expect(announced.value == ["Tea"])
        // The event a page hears names the timer safely, whatever the name holds.
        let frame = ServerEvent.timerDone(timerId: eggs.id, name: "Eggs \"soft\"").frame
        #expect(frame.hasPrefix("event: timer\ndata: {") && frame.contains(#""name":"Eggs \"soft\"""#))
    }

    @Test func aServerThatCanRingAnnouncesAPlantedTreeOnceAndAPageAsksFirst() async throws {
        let server = try await TestServer()
        let planted = LockedBox<[UUID]>([])
        let alarm = TimerAlarmService(
            database: server.database, clock: SimulatedClock(server.clock), onDone: { _ in },
            onFocusDone: { session in planted.mutate { $0.append(session.id) } })
        let first = try server.database.focus.start(plannedDuration: 120)
        #expect(try await alarm.tick() == .seconds(1))
        server.clock.advance(by: 119.75)
        #expect(try await alarm.tick() == .milliseconds(250), "sleeps until the session is due")
        server.clock.advance(by: 0.25)
        _ = try await alarm.tick()
        _ = try await alarm.tick()
        #expect(planted.value == [first.id])
        // A page that noticed the next one first: the server stays quiet about it.
        let second = try server.database.focus.start(plannedDuration: 60)
        server.clock.advance(by: 60)
        _ = try server.database.focus.settle()
        try await server.test { c in
            #expect(try await c.post("/api/v1/focus/sessions/\(first.id)/notice").object["claimed"] as? Bool == false, "the server rang")
            #expect(try await c.post("/api/v1/focus/sessions/\(second.id)/notice").object["claimed"] as? Bool == true)
            expectProblem(try await c.post("/api/v1/focus/sessions/\(UUID())/notice"), 404)
        }
        _ = try await alarm.tick()
        #expect(planted.value == [first.id])
    }

    @Test func aServerThatCanRingSaysBreakOverOnceUnlessSkippedOrSaid() async throws {
        let server = try await TestServer()
        let over = LockedBox<[UUID]>([])
        let alarm = TimerAlarmService(
            database: server.database, clock: SimulatedClock(server.clock), maxSleep: .seconds(600), onDone: { _ in },
            onBreakOver: { pause in over.mutate { $0.append(pause.sessionID) } })
        let first = try server.database.focus.start(plannedDuration: 60)
        server.clock.advance(by: 60)
        #expect(try await alarm.tick() == .seconds(300), "sleeps until the break ends")
        server.clock.advance(by: 300)
        _ = try await alarm.tick()
        _ = try await alarm.tick()
        #expect(over.value == [first.id])
        // Skipped: nothing to say. Said first by a page: the server stays quiet.
        _ = try server.database.focus.start(plannedDuration: 60)
        server.clock.advance(by: 70)
        try server.database.focus.skipBreak()
        server.clock.advance(by: 400)
        _ = try await alarm.tick()
        let third = try server.database.focus.start(plannedDuration: 60)
        server.clock.advance(by: 360)
        try await server.test { c in
            let first = try await c.post("/api/v1/focus/sessions/\(third.id)/break-notice")
            let again = try await c.post("/api/v1/focus/sessions/\(third.id)/break-notice")
            #expect(first.object["claimed"] as? Bool == true)
            #expect(again.object["claimed"] as? Bool == false)
        }
        _ = try await alarm.tick()
        #expect(over.value == [first.id])
    }
}
