import Foundation
import GRDB
import GroveCore
import Testing

@testable import GroveStore

@Suite("Pause in the store")
struct PauseStoreTests {
    @Test func aGatewayWalkthroughRecordsStatusOutcomeAndAttempts() throws {
        let (db, clock) = try makeStore()
        #expect(try db.pause.attemptsToday(appId: "instagram") == 0)
        let (first, content) = try db.pause.start(appId: "instagram", platform: "test")
        #expect(first.isOpen)
        #expect(first.durationSetting == 15)
        #expect(try db.content.item(id: content.id)?.timesShown == 1)
        clock.advance(by: 16)
        let done = try db.pause.finishSession(id: first.id, status: .completed, outcome: .proceedToApp)
        #expect(done.timeSpent == 15)
        let (second, nextContent) = try db.pause.start(appId: "instagram", platform: "test")
        #expect(nextContent.id != content.id, "content rotates")
        clock.advance(by: 3)
        try db.pause.finishSession(id: second.id, status: .exited, outcome: .exitToHome)
        #expect(try db.pause.attemptsToday(appId: "instagram") == 2)
        #expect(throws: PauseValidationError.sessionAlreadyFinished) {
            try db.pause.finishSession(id: second.id, status: .exited, outcome: .exitToHome)
        }
        let stats = try #require(try db.pause.statistics(appId: "instagram").first)
        #expect(stats.totalSessions == 2)
        #expect(stats.completedSessions == 1)
        #expect(stats.exitedSessions == 1)
        #expect(stats.notOpenedSessions == 1, "the exit; the first pause went on to the app")
        #expect(stats.avgTimeSpent == 9)
        #expect(stats.completionRate == 0.5)
        #expect(!stats.meetsTarget)
        #expect(throws: PauseValidationError.unknownApp("nope")) { try db.pause.start(appId: "nope", platform: "test") }
    }

    @Test func aPageClosedMidPauseEndsAsTimeout() throws {
        let (db, clock) = try makeStore()
        let (open, _) = try db.pause.start(appId: "youtube", platform: "web")
        clock.advance(by: 19)
        #expect(try db.pause.recoverAbandoned() == 0)
        clock.advance(by: 2)
        #expect(try db.pause.recoverAbandoned() == 1)
        let closed = try #require(try db.pause.session(id: open.id))
        #expect(closed.completionStatus == .timeout)
        #expect(closed.actionOutcome == nil)
    }

    @Test func aGateCountsEachOpeningOnceAndLetsAnAppWhoseGateIsOffThrough() throws {
        let (db, clock) = try makeStore()
        #expect(throws: PauseValidationError.appNotGated("youtube")) { try db.pause.open(appId: "youtube", platform: "web") }
        #expect(try db.pause.attemptsToday(appId: "youtube") == 0)
        #expect(throws: PauseValidationError.unknownApp("nope")) { try db.pause.open(appId: "nope", platform: "web") }
        try db.pause.setAppEnabled(id: "youtube", true)
        let first = try db.pause.open(appId: "youtube", platform: "web")
        #expect(first.attemptsBefore == 0)
        clock.advance(by: 5)
        let second = try db.pause.open(appId: "youtube", platform: "web")
        #expect(second.attemptsBefore == 1)
        // Showing the first pause again counts the openings before it, not itself or later ones.
        #expect(try db.pause.attemptsToday(appId: "youtube", before: first.session.startTimestamp) == 0)
        #expect(try db.pause.attemptsToday(appId: "youtube", before: second.session.startTimestamp) == 1)
        #expect(try db.pause.attemptsToday(appId: "youtube") == 2)
    }

    @Test func aPersonWhoComesBackAfterRecoveryGetsTheirChoiceAndAKilledPauseIsForceQuit() throws {
        let (db, clock) = try makeStore()
        let (read, _) = try db.pause.start(appId: "youtube", platform: "web")
        clock.advance(by: 40)
        #expect(try db.pause.recoverAbandoned() == 1)
        let late = try db.pause.finishSession(id: read.id, status: .completed, outcome: .proceedToApp)
        #expect(late.completionStatus == .completed && late.actionOutcome == .proceedToApp && late.timeSpent == 15)
        #expect(throws: PauseValidationError.sessionAlreadyFinished) {
            try db.pause.finishSession(id: read.id, status: .exited, outcome: .exitToHome)
        }
        let (killed, _) = try db.pause.start(appId: "youtube", platform: "linux-cli")
        clock.advance(by: 4)
        let quit = try db.pause.finishSession(id: killed.id, status: .forceQuit, outcome: nil)
        #expect(quit.completionStatus == .forceQuit && quit.actionOutcome == nil && quit.timeSpent == 4)
        // Nobody can act on a killed pause: it stays force_quit.
        #expect(throws: PauseValidationError.sessionAlreadyFinished) {
            try db.pause.finishSession(id: killed.id, status: .exited, outcome: .exitToHome)
        }
    }

    @Test func pruningKeepsThirtyLocalDays() throws {
        let (db, clock) = try makeStore(at: "2025-03-01T12:00:00Z")
        for _ in 0..<40 {
            let (s, _) = try db.pause.start(appId: "reddit", platform: "test")
            clock.advance(by: 20)
            try db.pause.finishSession(id: s.id, status: .completed, outcome: .exitToHome)
            clock.advance(by: 86_400 - 20)
        }
        // Now 2025-04-10; the 30 days kept are 03-12 … 04-10 (the last session was on 04-09).
        #expect(try db.pause.pruneExpired() == 11)
        let days = try db.pause.statistics().map(\.date)
        #expect(days.min() == day("2025-03-12"))
        #expect(days.count == 29)
        #expect(try db.pause.statistics(appId: "reddit").first?.streakCount == 29)
        #expect(try db.pause.pruneExpired() == 0)
    }

    @Test func atMostTenAppsEnabled() throws {
        let (db, _) = try makeStore()
        for i in 0..<12 { try db.pause.saveApp(SocialApp(id: "app\(i)", displayName: "App \(i)", urlScheme: "app\(i)://", order: 10 + i)) }
        for i in 0..<10 { try db.pause.setAppEnabled(id: "app\(i)", true) }
        let before = try snapshot(db)
        #expect(throws: PauseValidationError.tooManyEnabledApps(11)) { try db.pause.setAppEnabled(id: "app10", true) }
        #expect(throws: PauseValidationError.self) {
            try db.pause.saveApp(SocialApp(id: "app11", displayName: "A", urlScheme: "a://", isEnabled: true))
        }
        #expect(throws: DatabaseError.self) {
            try db.writer.write { try $0.execute(sql: "UPDATE social_app SET is_enabled = 1 WHERE id = 'app11'") }
        }
        #expect(try snapshot(db) == before)
        #expect(try db.pause.preferences().enabledApps.count == 10)
    }

    @Test func preferencesAndContent() throws {
        let (db, _) = try makeStore()
        var p = try db.pause.preferences()
        p.timerDuration = 30
        p.selectedCategories = [.stoicism]
        p.enabledApps = ["instagram", "x"]
        try db.pause.updatePreferences(p)
        #expect(try db.pause.preferences() == p)
        let (session, content) = try db.pause.start(appId: "x", platform: "t")
        #expect(session.durationSetting == 30)
        #expect(content.category == .stoicism)
        p.enabledApps = ["ghost"]
        #expect(throws: PauseValidationError.unknownApp("ghost")) { try db.pause.updatePreferences(p) }
        p.enabledApps = []
        p.timerDuration = 10
        #expect(throws: PauseValidationError.timerDuration(10)) { try db.pause.updatePreferences(p) }
        let mine = MindfulnessContent(
            id: "mine-1", type: .prompt, text: "  What would make the next ten minutes feel well spent, truly?  ", category: .productivity)
        try db.content.save([mine])
        #expect(try db.content.item(id: "mine-1")?.text.hasPrefix("What") == true)
        #expect(throws: PauseValidationError.contentTextLength(5)) {
            try db.content.save([MindfulnessContent(id: "mine-2", type: .quote, text: "short", category: .nature)])
        }
        #expect(try db.content.item(id: "mine-2") == nil)
    }
}

/// What `grove serve`'s maintenance sleeps until (instead of looking every second).
@Suite("The next instant the store needs settling")
struct NextSettleInstantTests {
    @Test func theRunningSessionsEndAnOpenPausesGraceOrMidnightWhicheverComesFirst() throws {
        let clock = TestClock(instant("2025-05-14T09:00:00Z"))
        let db = try AppDatabase.inMemory(environment: .test(clock: clock))
        #expect(try db.nextSettleInstant() == instant("2025-05-15T00:00:00Z"))
        try db.focus.start(plannedDuration: 1500)
        #expect(try db.nextSettleInstant() == instant("2025-05-14T09:25:00Z"))
        try db.pause.setAppEnabled(id: "youtube", true)
        // A pause opened before the tree (`start`: the gate itself waits behind a growing tree).
        let pause = try db.pause.start(appId: "youtube", platform: "test").session
        #expect(try db.nextSettleInstant() == pause.timeoutAt)
        // Past that instant, settling clears it: the next one is the session's end again.
        clock.advance(by: TimeInterval(pause.durationSetting + GatewaySession.gracePeriod) + 0.01)
        try db.pause.settle()
        #expect(try db.nextSettleInstant() == instant("2025-05-14T09:25:00Z"))
        // A paused session falls due at no instant.
        try db.focus.pause()
        #expect(try db.nextSettleInstant() == instant("2025-05-15T00:00:00Z"))
    }
}
