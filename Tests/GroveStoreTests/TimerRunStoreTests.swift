import Foundation
import GRDB
import GroveCore
import Testing

@testable import GroveStore

@Suite("Timer runs: a countdown kept in the store, announced once")
struct TimerRunStoreTests {
    @Test func aRunCountsDownPausesResumesAndFinishesAtItsInstant() throws {
        let (db, clock) = try makeStore(at: "2025-05-01T09:00:00Z")
        let tea = try db.timers.create(name: "Tea", durationInSeconds: 180)
        let started = try db.timers.start(timerId: tea.id)
        #expect(started.state == .running && started.remaining == 180 && started.dueAt == instant("2025-05-01T09:03:00Z"))
        clock.advance(by: 60)
        let paused = try db.timers.pause(timerId: tea.id)
        #expect(paused.state == .paused && paused.remaining == 120 && paused.dueAt == nil)
        clock.advance(by: 600)
        #expect(try db.timers.run(timerId: tea.id)?.remaining == 120, "a pause stops the countdown, however long")
        let resumed = try db.timers.resume(timerId: tea.id)
        #expect(resumed.state == .running && resumed.dueAt == instant("2025-05-01T09:13:00Z"))
        // Another "process" (a second store on the same data would read the same row) sees it as it stands.
        clock.advance(by: 119)
        #expect(try db.timers.runs().map(\.remaining) == [1])
        clock.advance(by: 5)
        #expect(try db.timers.run(timerId: tea.id)?.state == .finished)
        #expect(try db.timers.run(timerId: tea.id)?.remaining == 0)
        // Start again: from the full length.
        #expect(try db.timers.start(timerId: tea.id).remaining == 180)
    }

    @Test func whatTheStateDoesNotAllowIsRefusedAndChangesNothing() throws {
        let (db, clock) = try makeStore()
        let tea = try db.timers.create(name: "Tea", durationInSeconds: 60)
        #expect(throws: TimerRunError.noRun("Tea")) { try db.timers.pause(timerId: tea.id) }
        #expect(throws: TimerRunError.noRun("Tea")) { try db.timers.resume(timerId: tea.id) }
        #expect(try db.timers.stop(timerId: tea.id) == false)
        #expect(throws: NotFoundError.self) { try db.timers.start(timerId: UUID()) }
        try db.timers.start(timerId: tea.id)
        #expect(throws: TimerRunError.notPaused) { try db.timers.resume(timerId: tea.id) }
        clock.advance(by: 61)
        #expect(throws: TimerRunError.notRunning) { try db.timers.pause(timerId: tea.id) }
        #expect(try db.timers.run(timerId: tea.id)?.state == .finished)
        #expect(try db.timers.stop(timerId: tea.id))
        #expect(try db.timers.runs().isEmpty)
    }

    @Test func theFinishIsAnnouncedOnceWhoeverAsksFirst() throws {
        let (db, clock) = try makeStore()
        let tea = try db.timers.create(name: "Tea", durationInSeconds: 60)
        let eggs = try db.timers.create(name: "Eggs", durationInSeconds: 420)
        try db.timers.start(timerId: tea.id)
        try db.timers.start(timerId: eggs.id)
        #expect(try db.timers.claimNotice(timerId: tea.id) == false, "not due yet")
        let before = try db.timers.notices()
        #expect(before.due.isEmpty && before.next == clock.now.addingTimeInterval(60))
        clock.advance(by: 60)
        let due = try db.timers.notices()
        #expect(due.due.map(\.name) == ["Tea"] && due.next == clock.now.addingTimeInterval(360))
        #expect(try db.timers.claimNotice(timerId: tea.id))
        #expect(try db.timers.claimNotice(timerId: tea.id) == false, "the second asker is told it was announced")
        #expect(try db.timers.notices().due.isEmpty)
        // A restart is a new run, announced again when it ends.
        try db.timers.start(timerId: tea.id)
        clock.advance(by: 60)
        #expect(try db.timers.claimNotice(timerId: tea.id))
        // A paused run is never due.
        try db.timers.pause(timerId: eggs.id)
        clock.advance(by: 3600)
        #expect(try db.timers.notices().due.isEmpty && db.timers.notices().next == nil)
    }

    @Test func editingTheTimerKeepsItsRunAndDeletingItEndsIt() throws {
        let (db, clock) = try makeStore()
        var tea = try db.timers.create(name: "Tea", durationInSeconds: 180)
        try db.timers.start(timerId: tea.id)
        clock.advance(by: 30)
        tea.name = "Green tea"
        tea.durationInSeconds = 600
        try db.timers.save(tea)
        let run = try #require(try db.timers.run(timerId: tea.id))
        #expect(run.name == "Green tea" && run.remaining == 150, "the run keeps the length it started with")
        try db.timers.delete(id: tea.id)
        #expect(try db.timers.runs().isEmpty)
    }
}

@Suite("Focus notices: a planted tree announced once per device, never an abandoned one")
struct FocusNoticeStoreTests {
    @Test func aCompletedSessionIsClaimedOnceAndAnAbandonedOneNever() throws {
        let (db, clock) = try makeStore(at: "2025-05-01T09:00:00Z")
        let session = try db.focus.start(plannedDuration: 300)
        #expect(try db.focus.claimNotice(sessionId: session.id) == false, "running: nothing to announce")
        let before = try db.focus.notices()
        #expect(before.due == nil && before.next == instant("2025-05-01T09:05:00Z"))
        clock.advance(by: 300)
        let due = try db.focus.notices()
        #expect(due.due?.id == session.id && due.due?.state == .completed && due.next == nil, "settled at its instant")
        #expect(try db.focus.claimNotice(sessionId: session.id))
        #expect(try db.focus.claimNotice(sessionId: session.id) == false, "the second asker stays quiet")
        #expect(try db.focus.notices().due == nil)
        let abandoned = try db.focus.start(plannedDuration: 300)
        clock.advance(by: 10)
        try db.focus.abandon()
        #expect(try db.focus.claimNotice(sessionId: abandoned.id) == false && db.focus.notices().due == nil)
        #expect(try db.focus.claimNotice(sessionId: UUID()) == false)
    }

    @Test func anOldTreeIsNotAnnouncedLateAndADeletedOneTakesItsNoticeAlong() throws {
        let (db, clock) = try makeStore(at: "2025-05-01T09:00:00Z")
        let session = try db.focus.start(plannedDuration: 60)
        clock.advance(by: 60 + FocusRoom.noticeWindow + 1)
        #expect(try db.focus.notices().due == nil, "a server started an hour later does not ring for it")
        #expect(try db.focus.claimNotice(sessionId: session.id), "a waiter that was there all along still may")
        try db.focus.delete(id: session.id)
        #expect(try db.writer.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM focus_notice") } == 0)
    }
}
