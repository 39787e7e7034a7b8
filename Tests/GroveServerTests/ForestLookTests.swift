import Foundation
import GroveCore
import GroveStore
import Testing

@testable import GroveServer

/// The web forest: trees that differ by species and length, withered trees for sessions given up,
/// days under their months, still a window of days at a time.
@Suite("The forest page: species, sizes, withered trees, months")
struct ForestLookTests {
    @Test func treesDifferAndAbandonedSessionsWither() async throws {
        let server = try await TestServer(at: "2025-06-02T12:00:00Z")
        let db = server.database
        let day = { (text: String) in try #require(GroveExport.parseInstant(text)) }
        // Three lengths on 2 June, one given up; a tree at the end of May, under its own month.
        _ = try db.focus.log(start: try day("2025-06-02T08:00:00Z"), end: try day("2025-06-02T08:10:00Z"))
        _ = try db.focus.log(start: try day("2025-06-02T09:00:00Z"), end: try day("2025-06-02T09:25:00Z"))
        _ = try db.focus.log(start: try day("2025-06-02T10:00:00Z"), end: try day("2025-06-02T11:00:00Z"))
        _ = try db.focus.log(start: try day("2025-06-02T11:10:00Z"), end: try day("2025-06-02T11:15:00Z"), abandoned: true)
        _ = try db.focus.log(start: try day("2025-05-30T09:00:00Z"), end: try day("2025-05-30T09:25:00Z"))
        // A day with only a session given up still shows, with its withered tree.
        _ = try db.focus.log(start: try day("2025-05-31T09:00:00Z"), end: try day("2025-05-31T09:05:00Z"), abandoned: true)
        let window = try db.focus.forest()
        #expect(window.days.map(\.day.description) == ["2025-06-02", "2025-05-31", "2025-05-30"])
        #expect(window.days.map(\.withered.count) == [1, 1, 0] && window.days.map(\.abandoned) == [1, 1, 0])
        try await server.test { c in
            let page = try await c.get("/forest").text
            let june = try #require(page.range(of: "<h2>June 2025</h2>")), may = try #require(page.range(of: "<h2>May 2025</h2>"))
            #expect(june.lowerBound < may.lowerBound, "newest month first")
            #expect(page.contains(#"<time datetime="2025-06-02">Mon 2</time>"#))
            #expect(page.components(separatedBy: #"<i class="withered""#).count - 1 == 2)
            for size in ["s", "m", "l"] {
                #expect(page.range(of: #"<i class="(pine|oak|birch) \#(size)""#, options: .regularExpression) != nil, "size \(size)")
            }
            #expect(page.contains("Withered: given up after 5 min"))
        }
    }

    /// A day of more trees than a day draws shows its newest and says how many more, on the page, in
    /// the API's window and in `grove forest`'s counts.
    @Test func aCrowdedDaySaysHowManyMore() async throws {
        let server = try await TestServer(at: "2025-06-02T20:00:00Z")
        // Five-minute sessions every five minutes from 01:00: all of them on 2 June.
        let first = try #require(GroveExport.parseInstant("2025-06-02T01:00:00Z"))
        let sessions = (0..<(ForestWindow.treesDrawnPerDay + 40)).map { n in
            let start = first.addingTimeInterval(TimeInterval(n * 300))
            return FocusSession(
                id: UUID(), startTime: start, endTime: start.addingTimeInterval(290), state: .completed, duration: 290,
                plannedDuration: 290,
                timeZoneIdentifier: "UTC", endDay: LocalDay("2025-06-02"))
        }
        try server.database.focus.insert(sessions)
        try await server.test { c in
            let page = try await c.get("/forest").text
            #expect(page.contains("data-testid=\"more-trees\">+40 more<"), "\(page.prefix(400))")
            let window = try await c.get("/api/v1/focus/window").object
            let day = try #require((window["days"] as? [[String: Any]])?.first)
            #expect(day["notDrawn"] as? Int == 40)
            #expect(((day["sessions"] as? [Any])?.count ?? 0) + ((day["withered"] as? [Any])?.count ?? 0) == ForestWindow.treesDrawnPerDay)
        }
    }
}
