import Foundation
import Testing

/// The gate's integrity with the real binary: letting a tree wither with `grove pause --let-it-wither`
/// is counted on the pause, a gate switched off and a block removed are counted, and `grove pause
/// weeks`, `grove pause stats` and `grove review` say so in the same words.
@Suite("The gate's integrity, end to end")
struct GateIntegrityCommandTests {
    @Test func witheredTreesAndGatesOffInEveryFace() async throws {
        let g = Grove(timeZone: "Europe/Berlin")
        let monday = "2026-11-23T09:00:00Z"
        #expect(try await g.run("apps", "enable", "youtube", now: monday).status == 0)
        #expect(try await g.run("apps", "enable", "reddit", now: monday).status == 0)
        #expect(try await g.run("focus", "start", "--length", "25m", now: monday).status == 0)
        let waits = try await g.run("pause", "youtube", "--choice", "exit", now: "2026-11-23T09:01:00Z")
        #expect(waits.status == 0 && waits.out.contains("was not opened"), "\(waits.out)\(waits.err)")
        let withered = try await g.run("pause", "youtube", "--choice", "exit", "--let-it-wither", "--json", now: "2026-11-23T09:02:00Z")
        #expect(withered.status == 0, "\(withered.err)")
        let status = try await g.run("focus", "status", "--json", now: "2026-11-23T09:03:00Z").object()
        #expect((status["session"] as? [String: Any])?["state"] as? String != "active", "the tree withered: \(status)")
        #expect(try await g.run("apps", "block", "reddit", "sat 09:00-10:00", now: monday).status == 0)
        #expect(try await g.run("apps", "block", "reddit", "--off", now: monday).status == 0)
        #expect(try await g.run("apps", "disable", "reddit", now: monday).status == 0)
        let later = "2026-11-23T12:00:00Z"
        let weeks = try await g.run("pause", "weeks", "--json", now: later).array()
        let youtube = try #require(weeks.first { $0["appId"] as? String == "youtube" })
        #expect(youtube["witheredTrees"] as? Int == 1 && youtube["pauses"] as? Int == 1, "\(youtube)")
        let reddit = try #require(weeks.first { $0["appId"] as? String == "reddit" }, "a week with the gate off and no pause is shown")
        #expect(reddit["gatesOff"] as? Int == 1 && reddit["blocksLoosened"] as? Int == 1, "\(reddit)")
        let table = try await g.run("pause", "weeks", now: later).out
        #expect(table.contains("1 tree withered") && table.contains("gate off once, 1 block loosened"), "\(table)")
        #expect(table.contains("YouTube: time saved counts 10 min a visit (estimate)"), "\(table)")
        let stats = try await g.run("pause", "stats", now: later).out
        #expect(stats.contains("an estimate") && stats.contains("youtube: 10 min a visit (estimate)"), "\(stats)")
        let review = try await g.run("review", now: later).out
        #expect(review.contains("1 tree withered") && review.contains("gate off once"), "\(review)")
    }
}
