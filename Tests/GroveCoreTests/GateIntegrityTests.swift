import Foundation
import Testing

@testable import GroveCore

/// The visit after Proceed and the gate's integrity, as pure rules: what a visit report may say, what
/// counts as loosening a gate, and how measured visits replace the 10-minute estimate.
@Suite("The gate's integrity")
struct GateIntegrityTests {
    @Test("a visit report: after Proceed only, bounded by the time since, never lowering a figure")
    func recordVisit() throws {
        var pause = PauseFiguresTests.pause(1, "2026-11-18T15:00:00Z", .proceedToApp)  // ends 15:00:20
        let now = instant("2026-11-18T15:10:20Z")  // 600 s after Proceed
        #expect(
            throws: PauseValidationError.invalidVisit(
                field: "seconds", rule: "Seconds on the site cannot exceed the 600 s since Proceed (got 661)")
        ) {
            try pause.recordVisit(seconds: 661, graceVisits: 0, at: now)
        }
        try pause.recordVisit(seconds: 640, graceVisits: 0, at: now)  // the browser's clock a little ahead: within the slack
        #expect(pause.visitSeconds == 600, "never more than the time since Proceed")
        try pause.recordVisit(seconds: 100, graceVisits: 3, at: now)
        #expect(pause.visitSeconds == 600 && pause.graceVisits == 3)
        #expect(throws: PauseValidationError.invalidVisit(field: "graceVisits", rule: "Grace visits must be 0-10000 (got 10001)")) {
            try pause.recordVisit(seconds: 1, graceVisits: 10_001, at: now)
        }
        var exited = PauseFiguresTests.pause(2, "2026-11-18T15:00:00Z", .exitToHome)
        #expect(throws: PauseValidationError.notProceeded) { try exited.recordVisit(seconds: 1, graceVisits: 0, at: now) }
        exited.visitSeconds = 5
        #expect(throws: PauseValidationError.self) { try exited.checkConsistency() }
    }

    @Test("loosening a gate: switched off, a block removed, strict dropped; a changed schedule is neither")
    func loosenings() throws {
        let schedule = try BlockSchedule(parsing: "mon-fri 09:00-12:00"), other = try BlockSchedule(parsing: "sat 10:00-11:00")
        let on = SocialApp(
            id: "youtube", displayName: "YouTube", urlScheme: "youtube://", isEnabled: true, blockSchedule: schedule, blockStrict: true)
        var off = on
        off.isEnabled = false
        #expect(GateChange.loosenings(from: on, to: off) == [.gateOff])
        #expect(GateChange.loosenings(from: off, to: off).isEmpty)
        var removed = on
        removed.blockSchedule = nil
        removed.blockStrict = false
        #expect(GateChange.loosenings(from: on, to: removed) == [.blockOff])
        var lax = on
        lax.blockStrict = false
        #expect(GateChange.loosenings(from: on, to: lax) == [.strictOff])
        var moved = on
        moved.blockSchedule = other
        #expect(GateChange.loosenings(from: on, to: moved).isEmpty)
        #expect(GateChange.loosenings(from: removed, to: on).isEmpty, "tightening is not loosening")
    }

    @Test("measured visits: time saved counts the app's mean visit; weeks and days agree; the words say which")
    func measured() {
        var proceeded = PauseFiguresTests.pause(1, "2026-11-16T15:00:00Z", .proceedToApp)
        proceeded.visitSeconds = 1500
        var second = PauseFiguresTests.pause(2, "2026-11-17T15:00:00Z", .proceedToApp)
        second.visitSeconds = 300
        second.graceVisits = 2
        let kept = PauseFiguresTests.pause(3, "2026-11-18T15:00:00Z", .exitToHome)
        var withered = PauseFiguresTests.pause(4, "2026-11-18T18:00:00Z", .exitToHome)
        withered.witheredTree = true
        let days = UsageStatistics.derive(from: [proceeded, second, kept, withered], calendar: newYork)
        #expect(days.allSatisfy { $0.savedPerVisit == 900 && $0.savedPerVisitMeasured == 2 })
        #expect(UsageStatistics.timeSaved(days) == 2 * 900)
        #expect(UsageStatistics.timeSavedBasis(days) == "measured")
        #expect(UsageStatistics.visitText(seconds: 900, measured: 2) == "15 min a visit, measured over 2 visits")
        #expect(UsageStatistics.visitText(seconds: UsageStatistics.visitEstimate, measured: 0) == "10 min a visit (estimate)")
        #expect(UsageStatistics.lengthText(45) == "45 s" && UsageStatistics.lengthText(.nan) == "0 s")
        let week = PauseWeek(
            appId: "youtube", start: day("2026-11-16"), end: day("2026-11-22"), pauses: 4, finished: 4, notOpened: 2, delayed: 0,
            emergencyPasses: 1, previousPauses: nil, current: true)
        #expect(week.integrityText == "1 emergency pass" && week.visitsText == "—")
        #expect(
            PauseWeek.integrityText(grace: 2, withered: 1, gatesOff: 2, loosened: 1, passes: 0)
                == "2 grace visits, 1 tree withered, gate off 2 times, 1 block loosened")
        #expect(PauseWeek.integrityText(grace: 0, withered: 0, gatesOff: 0, loosened: 0, passes: 0) == "held")
    }
}
