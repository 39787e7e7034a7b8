import Foundation
import Testing

@testable import GroveCore

@Suite("A pause that helps: the why question and time saved")
struct PauseHelpTests {
    @Test func everyOtherPauseOfADayAsksWhy() {
        #expect((0..<6).map { PauseReason.asks(attemptsToday: $0) } == [false, true, false, true, false, true])
        #expect(PauseReason.question("YouTube") == "Why are you opening YouTube?")
        #expect(Set(PauseReason.allCases.map(\.reply)).count == PauseReason.allCases.count)
    }

    @Test func timeSavedIsTenMinutesForEachVisitNotMade() throws {
        let stats = UsageStatistics(
            date: day("2025-05-01"), appId: "youtube", totalSessions: 5, completedSessions: 3, exitedSessions: 2,
            notOpenedSessions: 3, avgTimeSpent: 12, streakCount: 1)
        #expect(stats.timeSaved == 30 * 60)
        #expect(UsageStatistics.timeSaved([stats, stats]) == 60 * 60)
        let json = String(decoding: try JSONEncoder().encode(stats), as: UTF8.self)
        #expect(json.contains("\"timeSaved\":1800"))
    }
}
