import Foundation
import Testing

@Suite("grove focus --tag, retag, tags; stats, forest and export by tag, end to end")
struct TagCommandTests {
    @Test func aSessionSaysWhatItWasForAndEveryViewFiltersByIt() async throws {
        let g = Grove(timeZone: "Europe/Berlin", now: "2026-11-23T12:00:00Z")
        #expect(
            try await g.run("focus", "log", "--start", "09:00", "--end", "09:25", "--tag", "essay", "--tag", " deep work ").out
                .contains("for deep work, essay"))
        #expect(try await g.run("focus", "log", "--start", "10:00", "--end", "10:25", "--tag", "code,").status == 0)
        let started = try await g.run("focus", "start", "--length", "25m", "--tag", "essay")
        #expect(started.status == 0 && started.out.contains("for essay"))
        #expect(try await g.run("focus", "status").out.contains("For: essay"))
        // Retag the running session, then the last one by id prefix; none given removes them.
        #expect(try await g.run("focus", "retag", "current", "essay", "reading").out == "Tagged the running session: essay, reading.\n")
        let first = try await g.run("focus", "log", "--start", "08:00", "--end", "08:25", "--json").object()
        let id = try #require(first["id"] as? String).prefix(8).lowercased()
        #expect(try await g.run("focus", "retag", id, "code").out.hasPrefix("Tagged the completed session of 2026-11-23: code."))
        #expect(try await g.run("focus", "retag", "last").out == "Removed the tags of the running session.\n")
        #expect(try await g.run("focus", "retag", "current", "essay").status == 0)

        // The running session completes at 12:25 UTC; everything below reads it as a tree.
        let later = "2026-11-23T13:00:00Z"
        let tags = try await g.run("focus", "tags", "--json", now: later).array()
        #expect(tags.map { "\($0["tag"] ?? "") \($0["trees"] ?? "")" } == ["code 2", "deep work 1", "essay 2"])
        let stats = try await g.run("stats", "--tag", "essay", "--json", now: later).object()
        let essay = try #require(stats["stats"] as? [String: Any])
        #expect(essay["totalTrees"] as? Int == 2 && essay["totalFocusTime"] as? Double == 3000 && essay["currentStreak"] as? Int == 1)
        #expect(try await g.run("stats", "--tag", "essay", now: later).out.hasPrefix("Forest · essay\n"))
        let forest = try await g.run("forest", "--tag", "code", now: later)
        #expect(forest.out.hasSuffix("2 trees tagged code\n"))
        #expect(try await g.run("forest", "--tag", "nothing", now: later).out.hasPrefix("No trees tagged nothing."))
        let csv = try await g.run("export", "--format", "csv", "--tag", "deep work", now: later).out.split(separator: "\r\n")
        #expect(csv.count == 2 && csv[1].hasSuffix(",\"deep work,essay\""))
        let review = try await g.run("review", "--json", now: later).object()
        #expect((review["tags"] as? [[String: Any]])?.map { $0["tag"] as? String ?? "" } == ["code", "essay", "deep work"])
    }

    @Test func badTagsExit64NamingTheRuleAndChangeNothing() async throws {
        let g = Grove(now: "2026-11-23T12:00:00Z")
        #expect(try await g.run("focus", "log", "--start", "09:00", "--end", "09:25", "--tag", "essay").status == 0)
        let before = try await g.snapshot()
        let cases: [([String], String)] = [
            (["focus", "start", "--tag", ""], "A tag cannot be empty"),
            (["focus", "start", "--tag", String(repeating: "x", count: 41)], "at most 40 characters"),
            (["focus", "log", "--start", "10:00", "--end", "10:25", "--tag", "tab\there"], "control characters"),
            (["focus", "start"] + (0..<11).flatMap { ["--tag", "t\($0)"] }, "at most 10 tags"),
            (["focus", "retag", "last", "a,b"], "cannot contain a comma"),
            (["focus", "retag", "current", "essay"], "No session is running"),
            (["stats", "--tag", " "], "A tag cannot be empty"),
            (["forest", "--tag", "essay", "--limit", "5"], "limit cannot be combined with tag"),
            (["export", "--tag", "a,b"], "cannot contain a comma"),
        ]
        for (arguments, message) in cases {
            let result = try await g.run(arguments)
            #expect(result.status == 64 && result.err.contains(message), "\(arguments): \(result.err)")
        }
        #expect(try await g.snapshot() == before)
    }
}
