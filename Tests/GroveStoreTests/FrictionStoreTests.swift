import Foundation
import GRDB
import GroveCore
import Testing

@testable import GroveStore

@Suite("Adaptive friction in the store")
struct FrictionStoreTests {
    /// One pause of `app` now: left at once with Exit, or waited out and proceeded; then 11 minutes
    /// pass, so that an exit is not a pause that only delayed the visit (another try within 10).
    @discardableResult
    func pause(_ db: AppDatabase, _ clock: TestClock, exit: Bool, app: String = "instagram") throws -> GatewaySession {
        let session = try db.pause.start(appId: app, platform: "test").session
        if exit {
            try db.pause.finishSession(id: session.id, status: .exited, outcome: .exitToHome)
        } else {
            clock.advance(by: TimeInterval(session.durationSetting))
            try db.pause.finishSession(id: session.id, status: .completed, outcome: .proceedToApp)
        }
        clock.advance(by: 11 * 60)
        return session
    }

    @Test func anExitThatOnlyDelayedTheVisitDoesNotCountAsWorking() throws {
        let (db, clock) = try makeStore(at: "2025-06-02T09:00:00Z")
        _ = try db.pause.changePreferences { $0.timerDuration = 20 }
        try db.pause.setFriction(appId: "instagram", true)
        // Week 1: 5 exits, each for good. Week 2: 5 exits, each tried again within a minute and let through.
        for _ in 0..<5 { try pause(db, clock, exit: true) }
        clock.advance(by: 7 * 86_400)
        for _ in 0..<5 {
            let quick = try db.pause.start(appId: "instagram", platform: "test").session
            try db.pause.finishSession(id: quick.id, status: .exited, outcome: .exitToHome)
            clock.advance(by: 60)
            try pause(db, clock, exit: false)
        }
        clock.advance(by: 7 * 86_400)
        // Counted as exits, week 2 would look half as good as week 1 (5 of 10): it was none of 10.
        #expect(try pause(db, clock, exit: true).durationSetting == 25)
        #expect(try db.pause.friction().first?.recentExitRate == 0)
    }

    @Test func offByDefaultThenTheWeekDecides() throws {
        let (db, clock) = try makeStore(at: "2025-06-02T09:00:00Z")
        _ = try db.pause.changePreferences { $0.timerDuration = 20 }
        #expect(try db.pause.friction().isEmpty)
        #expect(try pause(db, clock, exit: false).durationSetting == 20)

        try db.pause.setFriction(appId: "instagram", true)
        #expect(try db.pause.friction().map(\.duration) == [20])
        // Week 1: 8 of 11 pauses (the one above included) end without opening the app. Week 2: 2 of 10.
        for i in 0..<10 { try pause(db, clock, exit: i < 8) }
        clock.advance(by: 7 * 86_400)
        for i in 0..<10 { try pause(db, clock, exit: i < 2) }
        // Other apps' pauses say nothing about this one.
        for _ in 0..<10 { try pause(db, clock, exit: true, app: "youtube") }
        clock.advance(by: 7 * 86_400)
        let longer = try pause(db, clock, exit: true)
        #expect(longer.durationSetting == 25)
        let friction = try #require(try db.pause.friction().first)
        #expect(friction.lastChange == 5 && friction.recentExitRate == 0.2 && friction.earlierExitRate == 8.0 / 11)
        // Reviewed: the rest of the week keeps the length, and youtube (friction off) keeps the setting.
        clock.advance(by: 3 * 86_400)
        #expect(try pause(db, clock, exit: true).durationSetting == 25)
        #expect(try pause(db, clock, exit: true, app: "youtube").durationSetting == 20)

        // Off again: back to the setting at once, and nothing left behind.
        try db.pause.setFriction(appId: "instagram", false)
        #expect(try pause(db, clock, exit: true).durationSetting == 20)
        #expect(try db.pause.friction().isEmpty)
        #expect(throws: PauseValidationError.unknownApp("nope")) { try db.pause.setFriction(appId: "nope", true) }
    }

    @Test func theReviewReadsTwoWeeksByTheIndexNotEveryPause() throws {
        let (db, clock) = try makeStore(at: "2025-06-02T09:00:00Z")
        try db.pause.setFriction(appId: "instagram", true)
        let plan = try db.writer.read { d in
            try Row.fetchAll(
                d,
                sql: """
                    EXPLAIN QUERY PLAN SELECT total(completion_status IS NOT NULL), total(action_outcome IN ('exit_to_home', 'deepen_pause'))
                    FROM gateway_session WHERE app_id = ? AND local_day BETWEEN ? AND ?
                    """, arguments: ["instagram", "2025-05-20", "2025-05-26"]
            ).map { $0["detail"] as String? ?? "" }
        }
        #expect(plan.contains { $0.contains("USING INDEX gateway_session_app_day (app_id=? AND local_day>? AND local_day<?)") }, "\(plan)")
        _ = clock
    }
}
