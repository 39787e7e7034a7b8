import Foundation
import GroveCore
import Testing

@testable import GroveStore

@Suite("Open-ended sessions and the stored break")
struct FocusBreakStoreTests {
    @Test func anOpenEndedSessionCountsUpAndStopPlantsATreeOfTheTimeSpent() throws {
        let (db, clock) = try makeStore(at: "2025-05-01T09:00:00Z")
        let started = try db.focus.start(openEnded: true, tags: ["essay"])
        #expect(started.openEnded && started.state == .active)
        clock.advance(by: 10 * 60)
        try db.focus.pause()
        clock.advance(by: 5 * 60)
        try db.focus.resume()
        clock.advance(by: 30 * 60)
        // A planned session is not stopped; an open-ended one is, with the focus time actually spent.
        let stopped = try db.focus.stop()
        #expect(stopped.state == .completed && stopped.duration == 40 * 60 && stopped.pausedDuration == 5 * 60)
        #expect(throws: FocusError.noOpenSession) { try db.focus.stop() }
        // Counted like any tree: stats, the streak, its tag.
        let stats = try db.focus.stats()
        #expect(stats.totalTrees == 1 && stats.totalFocusTime == 40 * 60 && stats.currentStreak == 1)
        #expect(try db.focus.stats(tag: "essay").totalFocusTime == 40 * 60)
        // No Pomodoro cycle, no break.
        #expect(try db.focus.currentBreak() == nil)
        // A planned one refuses `stop`, and an open one refuses a length.
        try db.focus.start(plannedDuration: 600)
        #expect(throws: FocusError.notOpenEnded) { try db.focus.stop() }
        try db.focus.abandon()
        #expect(throws: InvalidField.self) { try db.focus.start(plannedDuration: 600, openEnded: true) }
    }

    @Test func aForgottenOpenSessionStopsByItselfAtFourHours() throws {
        let (db, clock) = try makeStore()
        try db.focus.start(openEnded: true)
        clock.advance(by: 9 * 3600)
        #expect(try db.focus.current() == nil)
        let last = try db.focus.completed(limit: 1).first
        #expect(last?.duration == 4 * 3600 && last?.openEnded == true)
    }

    @Test func theBreakBeginsWhenTheTreeIsPlantedAndEveryReaderSeesIt() throws {
        let (db, clock) = try makeStore(at: "2025-05-01T09:00:00Z")
        var preferences = FocusPreferences.default
        preferences.longBreakInterval = 2
        try db.focus.updatePreferences(preferences)
        try db.focus.start(plannedDuration: 600)
        // Noticed late (nobody watched): the break began at the session's end, not now.
        clock.advance(by: 600 + 120)
        let first = try #require(try db.focus.currentBreak())
        #expect(first.kind == .short && first.startTime == instant("2025-05-01T09:10:00Z"))
        #expect(first.remaining(at: clock.now) == 180)
        #expect(try db.focus.status().break?.remaining == 180)
        // The next session ends it; that one's break is the long one (every 2nd tree).
        try db.focus.start(plannedDuration: 600)
        #expect(try db.focus.currentBreak() == nil)
        clock.advance(by: 600)
        let second = try #require(try db.focus.currentBreak())
        #expect(second.kind == .long && second.duration == 15 * 60)
        // Skipped: gone for every face; skipping again says there is none.
        clock.advance(by: 60)
        let skipped = try db.focus.skipBreak()
        #expect(skipped.endedEarlyAt == clock.now)
        #expect(try db.focus.currentBreak() == nil && db.focus.status().break == nil)
        #expect(throws: FocusError.noBreak) { try db.focus.skipBreak() }
        // Over by itself after its length.
        try db.focus.start(plannedDuration: 60)
        clock.advance(by: 60 + 299)
        #expect(try db.focus.currentBreak() != nil)
        clock.advance(by: 1)
        #expect(try db.focus.currentBreak() == nil)
    }

    @Test func breakOverIsSaidOnceOnlyForABreakThatRanItsCourseLately() throws {
        let (db, clock) = try makeStore()
        let first = try db.focus.start(plannedDuration: 60)
        clock.advance(by: 60 + 100)
        #expect(try db.focus.claimBreakOverNotice(sessionId: first.id) == false, "still running")
        clock.advance(by: 200)
        #expect(try db.focus.claimBreakOverNotice(sessionId: first.id))
        #expect(try db.focus.claimBreakOverNotice(sessionId: first.id) == false, "said already")
        // Skipped: nothing to say. Long over: news to nobody.
        let second = try db.focus.start(plannedDuration: 60)
        clock.advance(by: 90)
        try db.focus.skipBreak()
        clock.advance(by: 600)
        #expect(try db.focus.claimBreakOverNotice(sessionId: second.id) == false)
        let third = try db.focus.start(plannedDuration: 60)
        clock.advance(by: 60 + 300 + FocusRoom.noticeWindow + 1)
        #expect(try db.focus.claimBreakOverNotice(sessionId: third.id) == false)
        #expect(try db.focus.breakAfter(sessionId: third.id)?.pause.kind == .short)
        #expect(try db.focus.breakAfter(sessionId: first.id)?.pause == nil, "a later tree's break replaced it")
    }

    @Test func aBreakIsMeasuredByTheMonotonicClockSoAClockStepMovesNothing() throws {
        let (db, clock) = try makeStore(at: "2025-05-01T09:00:00Z")
        try db.focus.start(plannedDuration: 60)
        clock.advance(by: 60 + 60)
        let before = try #require(try db.focus.status().break)
        #expect(before.remaining == 240)
        // The wall clock is set two hours ahead (a step, not time passing): the break goes on as it was.
        clock.setWall(clock.now.addingTimeInterval(2 * 3600))
        #expect(try db.focus.status().break?.remaining == 240)
        #expect(try db.focus.currentBreak() != nil)
        clock.advance(by: 240)
        #expect(try db.focus.status().break == nil)
    }

    @Test func anAbandonedSessionEarnsNoBreak() throws {
        let (db, clock) = try makeStore()
        try db.focus.start(plannedDuration: 600)
        clock.advance(by: 60)
        try db.focus.abandon()
        #expect(try db.focus.currentBreak() == nil)
    }

    @Test func openEndedSurvivesExportAndImport() throws {
        let (db, clock) = try makeStore(at: "2025-05-01T09:00:00Z")
        try db.focus.start(openEnded: true)
        clock.advance(by: 1800)
        try db.focus.stop()
        try db.focus.start(plannedDuration: 600)
        clock.advance(by: 600)
        let exported = try db.transfer.exportJSON()
        #expect(String(decoding: exported, as: UTF8.self).components(separatedBy: "\"openEnded\":true").count == 2)
        let (fresh, freshClock) = try makeStore(at: "2025-05-01T09:00:00Z")
        freshClock.setWall(clock.now)
        try fresh.transfer.importJSON(exported)
        #expect(try fresh.transfer.exportJSON() == exported)
        #expect(try fresh.focus.completed().map(\.openEnded).sorted { !$0 && $1 } == [false, true])
    }
}
