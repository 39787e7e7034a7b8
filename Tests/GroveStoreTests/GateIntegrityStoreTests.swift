import Foundation
import GroveCore
import Testing

@testable import GroveStore

/// The gate's own integrity and the visit after Proceed, in the store: the extension's report only
/// grows and is bounded by the time since Proceed; gates switched off and blocks loosened are kept as
/// they happen, in every way the faces change an app; letting a tree wither to open an app is one
/// step, counted on the pause; and measured visits replace the 10-minute estimate in "time saved".
@Suite("The gate's integrity in the store")
struct GateIntegrityStoreTests {
    /// Proceeds to `app` through a full pause; returns the pause.
    func proceed(_ db: AppDatabase, _ clock: TestClock, _ app: String) throws -> GatewaySession {
        let (pause, _, _) = try db.pause.open(appId: app, platform: "test")
        clock.advance(by: 15)
        return try db.pause.finishSession(id: pause.id, status: .completed, outcome: .proceedToApp)
    }

    @Test("a visit report: only after Proceed, within the time since, each figure only grows")
    func visitReports() throws {
        let (db, clock) = try makeStore(at: "2026-11-23T10:00:00Z")
        try db.pause.setAppEnabled(id: "youtube", true)
        let (exited, _, _) = try db.pause.open(appId: "youtube", platform: "test")
        _ = try db.pause.finishSession(id: exited.id, status: .exited, outcome: .exitToHome)
        #expect(throws: PauseValidationError.notProceeded) { try db.pause.reportVisit(id: exited.id, seconds: 10, graceVisits: 0) }
        let pause = try proceed(db, clock, "youtube")
        clock.advance(by: 600)
        #expect(throws: PauseValidationError.self) { try db.pause.reportVisit(id: pause.id, seconds: 900, graceVisits: 0) }
        #expect(throws: PauseValidationError.self) { try db.pause.reportVisit(id: pause.id, seconds: -1, graceVisits: 0) }
        #expect(throws: PauseValidationError.self) { try db.pause.reportVisit(id: pause.id, seconds: 10, graceVisits: -1) }
        #expect(try db.pause.session(id: pause.id)?.visitSeconds == nil, "a refused report changes nothing")
        #expect(try db.pause.reportVisit(id: pause.id, seconds: 420, graceVisits: 1).visitSeconds == 420)
        // A late, older report (a retry) lowers nothing.
        let after = try db.pause.reportVisit(id: pause.id, seconds: 300, graceVisits: 0)
        #expect(after.visitSeconds == 420 && after.graceVisits == 1)
        #expect(throws: NotFoundError.self) { try db.pause.reportVisit(id: UUID(), seconds: 1, graceVisits: 0) }
    }

    @Test("measured visits replace the estimate in time saved, in the days and in the weeks alike")
    func measuredTimeSaved() throws {
        let (db, clock) = try makeStore(at: "2026-11-23T10:00:00Z")  // a Monday
        try db.pause.setAppEnabled(id: "youtube", true)
        try db.pause.setAppEnabled(id: "reddit", true)
        // YouTube: one visit measured at 30 minutes, then a pause that kept the person away.
        let visit = try proceed(db, clock, "youtube")
        clock.advance(by: 1800)
        try db.pause.reportVisit(id: visit.id, seconds: 1800, graceVisits: 2)
        clock.advance(by: 3600)
        let (kept, _, _) = try db.pause.open(appId: "youtube", platform: "test")
        _ = try db.pause.finishSession(id: kept.id, status: .exited, outcome: .exitToHome)
        // Reddit: kept away, nothing measured: the 10-minute estimate.
        clock.advance(by: 3600)
        let (away, _, _) = try db.pause.open(appId: "reddit", platform: "test")
        _ = try db.pause.finishSession(id: away.id, status: .exited, outcome: .exitToHome)
        clock.advance(by: 3600)
        let stats = try db.pause.statistics()
        let youtube = try #require(stats.first { $0.appId == "youtube" })
        #expect(youtube.savedPerVisit == 1800 && youtube.savedPerVisitMeasured == 1 && youtube.timeSaved == 1800)
        #expect(youtube.measuredVisits == 1 && youtube.visitSeconds == 1800 && youtube.graceVisits == 2)
        let reddit = try #require(stats.first { $0.appId == "reddit" })
        #expect(reddit.timeSaved == UsageStatistics.visitEstimate && reddit.savedPerVisitMeasured == 0)
        #expect(UsageStatistics.timeSavedBasis(stats) == "partly measured")
        let weeks = try db.pause.weeks()
        let week = try #require(weeks.first { $0.appId == "youtube" && $0.current })
        #expect(week.timeSaved == youtube.timeSaved && week.visitsText == "30 min over 1 visit")
        #expect(week.integrityText == "2 grace visits")
    }

    @Test("gates switched off and blocks loosened are kept, whichever way the app was changed")
    func loosenings() throws {
        let (db, clock) = try makeStore(at: "2026-11-23T10:00:00Z")
        try db.pause.setAppEnabled(id: "youtube", true)
        try db.pause.setAppEnabled(id: "reddit", true)
        try db.pause.setAppEnabled(id: "x", true)
        try db.pause.setAppEnabled(id: "youtube", false)  // 1: off
        try db.pause.setAppEnabled(id: "youtube", false)  // already off: nothing
        _ = try db.pause.changePreferences { $0.enabledApps.remove("reddit") }  // 2: off through the preferences
        var x = try #require(try db.pause.app(id: "x"))
        x.isEnabled = false
        try db.pause.updateApp(x)  // 3: off through a whole-app save
        try db.pause.setAppEnabled(id: "x", true)
        try db.pause.setBlock(id: "x", schedule: "sat 09:00-10:00", strict: true)
        try db.pause.setBlock(id: "x", schedule: "sat 09:00-10:00", strict: false)  // strict dropped
        try db.pause.setBlock(id: "x", schedule: "sun 09:00-10:00", strict: false)  // another schedule: neither
        try db.pause.setBlock(id: "x", schedule: nil, strict: false)  // removed
        clock.advance(by: 60)
        let weeks = try db.pause.weeks()
        let off = Dictionary(uniqueKeysWithValues: weeks.filter(\.current).map { ($0.appId, ($0.gatesOff, $0.blocksLoosened)) })
        #expect(off["youtube"]?.0 == 1 && off["reddit"]?.0 == 1 && off["x"]?.0 == 1)
        #expect(off["x"]?.1 == 2, "strict dropped, then the block removed")
        #expect(weeks.first { $0.appId == "youtube" && $0.current }?.integrityText == "gate off once")
        let review = try db.review.week(containing: nil)
        #expect(review.pauses.first { $0.appId == "youtube" }?.gatesOff == 1, "a week with the gate off and no pause is in the review")
        // Kept for 30 days, like pauses.
        clock.advance(by: 31 * 86_400)
        try db.pause.pruneExpired()
        #expect(try db.pause.weeks().allSatisfy { $0.gatesOff == 0 && $0.blocksLoosened == 0 })
    }

    @Test("letting the tree wither opens the pause in the same step and is counted; a block keeps the tree")
    func witheredTree() throws {
        let (db, clock) = try makeStore(at: "2026-11-23T10:00:00Z")  // a Monday, UTC
        try db.pause.setAppEnabled(id: "youtube", true)
        _ = try db.focus.start(plannedDuration: 1500, tags: [])
        clock.advance(by: 60)
        #expect(throws: PauseValidationError.treeGrowing("YouTube")) { try db.pause.open(appId: "youtube", platform: "test") }
        // Blocked: letting the tree wither would open nothing, so it is refused and the tree grows on.
        try db.pause.setBlock(id: "youtube", schedule: "mon 09:00-12:00", strict: false)
        #expect(throws: PauseValidationError.treeGrowing("YouTube")) {
            try db.pause.open(appId: "youtube", platform: "test", letTreeWither: true)
        }
        #expect(try db.focus.current()?.state == .active)
        try db.pause.setBlock(id: "youtube", schedule: nil, strict: false)
        let (pause, _, _) = try db.pause.open(appId: "youtube", platform: "test", letTreeWither: true)
        #expect(pause.witheredTree == true)
        #expect(try db.focus.current() == nil && db.focus.sessions(limit: 1).first?.state == .abandoned)
        // No tree growing: the flag asks nothing and counts nothing.
        clock.advance(by: 60)
        let (plain, _, _) = try db.pause.open(appId: "youtube", platform: "test", letTreeWither: true)
        #expect(plain.witheredTree == nil)
        #expect(try db.pause.statistics().first?.witheredTrees == 1)
        #expect(try db.review.week(containing: nil).pauses.first?.witheredTrees == 1)
    }
}
