import Foundation
import Testing

/// `grove apps block` and `grove pause --emergency` with the real binary, in New York, on both
/// sides of the spring DST change: the block holds at 09:00 local time whatever the UTC offset.
@Suite("grove apps block, end to end")
struct BlockCommandTests {
    @Test func blockAcrossDSTAndTheEmergencyPass() async throws {
        let g = Grove(timeZone: "America/New_York")
        let friday = "2026-03-06T14:30:00Z"  // 09:30 EST
        #expect(try await g.run("apps", "enable", "youtube").status == 0)
        let set = try await g.run("apps", "block", "youtube", "weekdays 09:00-12:00", "--strict", now: friday)
        #expect(set.status == 0 && set.out.contains("mon-fri 09:00-12:00, strictly (blocked now, until 12:00)"), "\(set.out)\(set.err)")
        let refused = try await g.run("pause", "youtube", "--choice", "proceed", now: friday)
        #expect(refused.status == 64 && refused.err.contains("blocked until 12:00"), "\(refused.err)")
        let held = try await g.run("apps", "disable", "youtube", now: friday)
        #expect(held.status == 64 && held.err.contains("strict block until 12:00"), "\(held.err)")
        let pass = try await g.run("pause", "youtube", "--choice", "exit", "--emergency", now: friday)
        #expect(pass.status == 0 && pass.out.contains("emergency pass"), "\(pass.out)\(pass.err)")
        let none = try await g.run("pause", "youtube", "--choice", "exit", "--emergency", now: friday)
        #expect(none.status == 64 && none.err.contains("emergency pass is used"), "\(none.err)")
        #expect(try await g.run("apps", "list", now: friday).out.contains("This week's emergency pass went to youtube"))
        // Monday after the change: 08:59 EDT is 12:59 UTC, not blocked; 09:00 EDT (13:00 UTC) is, with a new pass.
        #expect(try await g.run("pause", "youtube", "--choice", "exit", now: "2026-03-09T12:59:00Z").status == 0)
        #expect(try await g.run("pause", "youtube", "--choice", "exit", now: "2026-03-09T13:00:00Z").status == 64)
        #expect(try await g.run("apps", "list", now: "2026-03-09T13:00:00Z").out.contains("This week's emergency pass is left"))
        // Bad schedules are refused by name and change nothing.
        let bad = try await g.run("apps", "block", "youtube", "weekdays 9-12", now: "2026-03-09T17:00:00Z")
        #expect(bad.status == 64 && bad.err.contains("HH:MM"), "\(bad.err)")
        #expect(try await g.run("apps", "block", "youtube", now: "2026-03-09T17:00:00Z").status == 64, "neither a schedule nor --off")
        let off = try await g.run("apps", "block", "youtube", "--off", now: "2026-03-09T17:00:00Z")
        #expect(off.status == 0 && off.out.contains("no longer blocked"), "\(off.out)\(off.err)")
    }

    @Test("an exit followed by another try within 10 minutes is delayed, in stats, weeks and the review alike")
    func delayedIsTheSameInEveryFace() async throws {
        let g = Grove(timeZone: "Europe/Berlin")
        #expect(try await g.run("apps", "enable", "youtube").status == 0)
        #expect(try await g.run("pause", "youtube", "--choice", "exit", now: "2026-11-18T09:00:00Z").status == 0)
        #expect(try await g.run("pause", "youtube", "--choice", "exit", now: "2026-11-18T09:05:00Z").status == 0)
        #expect(try await g.run("pause", "youtube", "--choice", "exit", now: "2026-11-18T11:00:00Z").status == 0)
        let later = "2026-11-18T12:00:00Z"
        let day = try #require(try await g.run("pause", "stats", "--json", now: later).array().first)
        #expect(day["notOpenedSessions"] as? Int == 3 && day["delayedSessions"] as? Int == 1, "\(day)")
        #expect((day["timeSaved"] as? NSNumber)?.intValue == 2 * 600, "\(day)")
        let week = try #require(try await g.run("pause", "weeks", "--json", now: later).array().first)
        #expect(week["delayed"] as? Int == 1 && week["keptAway"] as? Int == 2 && week["pauses"] as? Int == 3, "\(week)")
        let table = try await g.run("pause", "weeks", now: later).out
        #expect(table.contains("YouTube") && table.contains("67%"), "\(table)")
        let review = try await g.run("review", "--json", now: later).object()
        let pauses = try #require((review["pauses"] as? [[String: Any]])?.first)
        #expect(pauses["delayed"] as? Int == 1 && pauses["previousAttempts"] as? Int == 0, "\(pauses)")
        #expect(try await g.run("pause", "stats", now: later).out.contains("2 times kept away; 1 only delayed"))
    }

    @Test("grove apps allow: an app allowed for the session's tag opens during focus, and the tree keeps growing")
    func focusAllowlist() async throws {
        let g = Grove()
        #expect(try await g.run("apps", "enable", "youtube").status == 0)
        let allow = try await g.run("apps", "allow", "youtube", "music")
        #expect(allow.status == 0 && allow.out.contains("sessions tagged music"), "\(allow.out)\(allow.err)")
        #expect(try await g.run("focus", "start", "--length", "25m", "--tag", "Music").status == 0)
        let pause = try await g.run("pause", "youtube", "--choice", "exit")
        #expect(pause.status == 0 && !pause.out.contains("tree is growing"), "\(pause.out)\(pause.err)")
        #expect(
            try await g.run("focus", "status", "--json").object()["session"].flatMap { ($0 as? [String: Any])?["state"] as? String }
                == "active")
        #expect(try await g.run("apps", "allow", "youtube").status == 64, "neither --always, tags nor --off")
        #expect(try await g.run("apps", "allow", "youtube", "--off").out.contains("waits behind a growing tree again"))
        let waits = try await g.run("pause", "youtube", "--choice", "exit")
        #expect(waits.out.contains("tree keeps growing") && waits.out.contains("was not opened"), "\(waits.out)\(waits.err)")
    }
}
