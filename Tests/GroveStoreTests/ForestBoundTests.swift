import Foundation
import GRDB
import GroveCore
import GroveTestSupport
import Testing

@testable import GroveStore

/// The forest's window costs its days, however crowded each one is: a day draws its
/// `ForestWindow.treesDrawnPerDay` newest trees and counts the rest, so two weeks of 400 sessions a
/// day and two weeks of 2,000 a day take the same SQLite steps to draw.
@Suite("The forest draws a bounded window, however crowded its days", .serialized, .heavy)
struct ForestBoundTests {
    static func store(perDay: Int) throws -> AppDatabase {
        let calendar = ZonedCalendar(identifier: "UTC")!
        let (db, _) = try makeStore(at: "2025-05-01T20:00:00Z")
        try db.focus.insert(SyntheticHistory.sessions(count: 14 * perDay, days: 14, lastDay: LocalDay("2025-05-01")!, calendar: calendar))
        return db
    }

    @Test func aCrowdedDayCostsWhatItDraws() throws {
        let busy = try Self.store(perDay: 400), crowded = try Self.store(perDay: 2_000)
        let small = try SQLiteWork.of(busy) { _ = try busy.focus.forest() }
        let large = try SQLiteWork.of(crowded) { _ = try crowded.focus.forest() }
        #expect(small > 0)
        #expect(large <= small + small / 4 + 100, "\(small) steps at 400 sessions a day, \(large) at 2,000")
        let window = try crowded.focus.forest()
        #expect(!window.days.isEmpty)
        for day in window.days {
            #expect(day.sessions.count + day.withered.count == ForestWindow.treesDrawnPerDay)
            #expect(day.notDrawn == day.trees + day.abandoned - ForestWindow.treesDrawnPerDay)
            // The newest are the ones drawn: every tree not drawn ended before the oldest drawn.
            let oldestDrawn = try #require((day.sessions + day.withered).compactMap(\.endTime).min()).groveMillis
            let later = try crowded.writer.read { db in
                try Int.fetchOne(
                    db,
                    sql: "SELECT count(*) FROM focus_session WHERE end_day = ? AND end_time >= ? AND state IN ('completed', 'abandoned')",
                    arguments: [day.day.description, oldestDrawn])
            }
            #expect(later == ForestWindow.treesDrawnPerDay)
        }
    }
}
