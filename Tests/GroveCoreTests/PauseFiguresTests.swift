import Foundation
import Testing

@testable import GroveCore

/// Pause figures that measure: a pause followed by another try within 10 minutes only delayed the
/// visit and saves nothing; weeks compare with the week before over the same days, and say nothing
/// about a week older than the 30 days kept.
@Suite("Pause figures that measure")
struct PauseFiguresTests {
    static func pause(
        _ n: Int, _ at: String, app: String = "youtube", _ outcome: GatewaySession.ActionType?, after seconds: Int = 20
    ) -> GatewaySession {
        var s = GatewaySession(
            id: uuid(n), appId: app, contentId: "c", startTimestamp: instant(at), durationSetting: 15,
            completionStatus: outcome == nil ? nil : outcome == .proceedToApp ? .completed : .exited, timeSpent: outcome == nil ? 0 : 5,
            actionOutcome: outcome, platform: "t", calendar: newYork)
        if outcome != nil { s.endTimestamp = instant(at).addingTimeInterval(TimeInterval(seconds)) }
        return s
    }

    @Test("an exit followed by another try within 10 minutes of its end is delayed; after 10 minutes, or at another app, it is not")
    func delayed() {
        let sessions = [
            Self.pause(1, "2026-11-18T15:00:00Z", .exitToHome),  // ends 15:00:20; next try 15:10:20 → delayed
            Self.pause(2, "2026-11-18T15:10:20Z", .exitToHome),  // next try 15:20:41 (10 min 1 s after its end) → kept away
            Self.pause(3, "2026-11-18T15:20:41Z", .proceedToApp),  // went on: never delayed
            Self.pause(4, "2026-11-18T16:00:00Z", .deepenPause),  // a tree instead, then x: another app → kept away
            Self.pause(5, "2026-11-18T16:01:00Z", app: "x", .exitToHome),
            Self.pause(6, "2026-11-18T17:00:00Z", .exitToHome),  // followed by an open pause (a try all the same) → delayed
            Self.pause(7, "2026-11-18T17:05:00Z", nil),
        ]
        #expect(UsageStatistics.delayedIDs(sessions) == [uuid(1), uuid(6)])
        let day = UsageStatistics.derive(from: sessions, calendar: newYork).first { $0.appId == "youtube" }
        #expect(day?.notOpenedSessions == 4 && day?.delayedSessions == 2 && day?.keptAwaySessions == 2)
        #expect(day?.timeSaved == 2 * UsageStatistics.visitEstimate, "only the pauses that kept the person away")
    }

    @Test("weeks: this one so far against the same days of the week before, a week without pauses shown, an old one unknown")
    func weeks() throws {
        // Today: Thursday 2026-11-19; weeks start on Monday here (11-16).
        let today = try #require(LocalDay("2026-11-19"))
        func days(_ d: String, total: Int, notOpened: Int = 0, delayed: Int = 0, finished: Int? = nil, app: String = "youtube")
            -> UsageDayCounts
        {
            UsageDayCounts(
                date: LocalDay(d)!, appId: app, total: total, completed: 0, exited: notOpened, notOpened: notOpened, delayed: delayed,
                timeSpentSum: 0, finished: finished ?? total)
        }
        let counts = [
            days("2026-11-16", total: 4, notOpened: 3, delayed: 1),  // this week (Mon)
            days("2026-11-09", total: 5, notOpened: 1),  // last week, Mon: within the days this week has had
            days("2026-11-13", total: 7),  // last week, Fri: after this week's Thursday
            days("2026-10-27", total: 9),  // the first week wholly in the 30 days kept (10-21…): 10-26
        ]
        let weeks = PauseWeek.derive(from: counts, calendar: newYork, today: today)
        let now = try #require(weeks.first)
        #expect(now.current && now.start == LocalDay("2026-11-16") && now.pauses == 4)
        #expect(now.previousPauses == 5, "Monday to Thursday of last week, not its Friday")
        #expect(now.change == -1 && now.keptAway == 2 && now.keptAwayShare == 0.5)
        let last = try #require(weeks.first { $0.start == LocalDay("2026-11-09") })
        #expect(!last.current && last.pauses == 12)
        let quiet = try #require(weeks.first { $0.start == LocalDay("2026-11-02") })
        #expect(quiet.pauses == 0 && quiet.keptAwayShare == 0, "a week without a try is shown, as zero")
        // The first week wholly inside the 30 days (from 10-21) starts 10-26; the week before it is unknown.
        let oldest = try #require(weeks.last)
        #expect(oldest.start == LocalDay("2026-10-26") && oldest.pauses == 9 && oldest.previousPauses == nil && oldest.change == nil)
        #expect(weeks.count == 4)
    }
}
