import Foundation
import Testing

@Suite("grove review, end to end")
struct ReviewCommandTests {
    @Test func theWeekAsTextAndAsJSON() async throws {
        let g = Grove(timeZone: "UTC", now: "2026-11-25T18:00:00Z")
        #expect(try await g.run("intention", "set", "Finish the essay draft", "--scope", "week").status == 0)
        #expect(try await g.run("focus", "log", "--start", "2026-11-23 09:00", "--end", "2026-11-23 09:50", "--tag", "essay").status == 0)
        #expect(
            try await g.run("focus", "log", "--start", "2026-11-24 09:00", "--end", "2026-11-24 09:25", "--tag", "essay,reading").status
                == 0)
        #expect(try await g.run("focus", "log", "--start", "2026-11-18 09:00", "--end", "2026-11-18 09:30").status == 0)

        let text = try await g.run("review")
        #expect(text.status == 0)
        #expect(text.out.hasPrefix("Week 2026-W48: 2026-11-23 to 2026-11-29\nIntention: Finish the essay draft"))
        #expect(text.out.contains("Mon 2026-11-23  50m"))
        #expect(text.out.contains("Focus: 1h 15m (+45m on the week before), 2 trees, 0 abandoned · streak 2 days"))
        #expect(text.out.contains("By tag: essay 1h 15m (2 trees) · reading 25m (1 tree)"))

        let json = try await g.run("review", "--week", "2026-W48", "--json").object()
        #expect(
            Set(json.keys) == [
                "week", "start", "end", "weekIntention", "days", "tags", "trees", "abandoned", "focusMinutes", "previousWeekFocusMinutes",
                "streak", "pauses", "pausesKept", "todosCompleted", "checklistsCompleted", "upcomingReminders",
            ])
        #expect(json["week"] as? String == "2026-W48" && json["start"] as? String == "2026-11-23" && json["end"] as? String == "2026-11-29")
        #expect(json["focusMinutes"] as? Int == 75 && json["trees"] as? Int == 2 && json["previousWeekFocusMinutes"] as? Int == 30)
        let days = try #require(json["days"] as? [[String: Any]])
        #expect(days.count == 7 && days[0]["focusMinutes"] as? Int == 50 && days[0]["weekday"] as? String == "Mon")
        let tags = try #require(json["tags"] as? [[String: Any]])
        #expect(tags.map { "\($0["tag"] ?? "") \($0["focusMinutes"] ?? "") \($0["trees"] ?? "")" } == ["essay 75 2", "reading 25 1"])
        #expect((days[1]["tags"] as? [[String: Any]])?.compactMap { $0["tag"] as? String } == ["essay", "reading"])

        let last = try await g.run("review", "--week", "last", "--json").object()
        #expect(last["week"] as? String == "2026-W47" && last["focusMinutes"] as? Int == 30)
        let bad = try await g.run("review", "--week", "2026-W99")
        #expect(bad.status == 64 && bad.err.contains("week must be 2026-W47 (an ISO week)"))
    }
}
