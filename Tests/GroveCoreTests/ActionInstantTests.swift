import Foundation
import Testing

@testable import GroveCore

@Suite("An action's instant: now, or when a device kept it offline")
struct ActionInstantTests {
    let now = instant("2025-05-14T09:00:00Z")

    @Test func noneGivenIsNowAndAnEarlierOneIsBelieved() throws {
        #expect(try ActionInstant.resolve(nil, now: now) == now)
        #expect(try ActionInstant.resolve(now.addingTimeInterval(-3600), now: now) == now.addingTimeInterval(-3600))
        #expect(try ActionInstant.resolve(now.addingTimeInterval(-ActionInstant.longestOffline), now: now) < now)
    }

    @Test func aClockALittleFastCountsAsNowAndTheFutureIsRefused() throws {
        #expect(try ActionInstant.resolve(now.addingTimeInterval(30), now: now) == now)
        #expect(throws: InvalidField.self) { try ActionInstant.resolve(now.addingTimeInterval(600), now: now, field: "startedAt") }
        do {
            _ = try ActionInstant.resolve(now.addingTimeInterval(600), now: now, field: "startedAt")
        } catch {
            #expect(error.field == "startedAt" && error.message.contains("future"))
        }
    }

    @Test func aWeekOldQueueIsRefusedByName() {
        #expect(throws: InvalidField("at", "at is more than 7 days ago: an action kept offline that long is not applied")) {
            try ActionInstant.resolve(now.addingTimeInterval(-ActionInstant.longestOffline - 1), now: now)
        }
    }
}
