import Foundation
import Testing

@Suite("grove timer start|pause|resume|stop|runs and grove now, end to end")
struct TimerRunCommandTests {
    @Test func aTimerStartedInTheBackgroundShowsEverywhereUntilStopped() async throws {
        let g = Grove(now: "2025-05-14T09:00:00Z")
        #expect(try await g.run("timer", "add", "Tea", "--duration", "3m").status == 0)
        #expect(try await g.run("timer", "add", "Eggs", "--duration", "7m").status == 0)
        #expect(try await g.run("timer", "start", "tea").out == "Tea started: 03:00, done at 09:03.\n")
        #expect(try await g.run("timer", "start", "eggs").status == 0)
        #expect(try await g.run("now", now: "2025-05-14T09:01:00Z").out == "⏱ Eggs 06:00 · ⏱ Tea 02:00\n")
        #expect(try await g.run("timer", "pause", "eggs", now: "2025-05-14T09:01:00Z").out == "Eggs paused with 06:00 left.\n")
        let runs = try await g.run("timer", "runs", "--json", now: "2025-05-14T09:05:00Z").array()
        #expect(runs.map { "\($0["name"] ?? "") \($0["state"] ?? "") \($0["remaining"] ?? "")" } == ["Eggs paused 360", "Tea finished 0"])
        #expect(try await g.run("now", now: "2025-05-14T09:05:00Z").out == "⏸ Eggs 06:00 · ⏰ Tea done\n")
        #expect(try await g.run("timer", "list", now: "2025-05-14T09:05:00Z").out.contains("⏰ done"))
        #expect(try await g.run("timer", "resume", "eggs", now: "2025-05-14T09:05:00Z").out == "Eggs running: 06:00 left.\n")
        #expect(try await g.run("timer", "stop", "tea", now: "2025-05-14T09:05:00Z").out == "Tea stopped.\n")
        #expect(try await g.run("now", now: "2025-05-14T09:06:00Z").out == "⏱ Eggs 05:00\n")
    }

    @Test func theSampleTimersLoadOnce() async throws {
        let g = Grove(now: "2025-05-14T09:00:00Z")
        #expect(try await g.run("timer", "samples").out == "Added 4 sample timers: grove timer list\n")
        #expect(try await g.run("timer", "samples").out == "The sample timers are already there.\n")
        let names = try await g.run("timer", "list", "--sort", "name", "--json").array().compactMap { $0["name"] as? String }
        #expect(names == ["Coffee Break", "Meditation", "Study Session", "Workout"])
    }

    @Test func anIntentionCanSayTheAssistantWroteIt() async throws {
        let g = Grove(now: "2025-05-14T09:00:00Z")
        let set = try await g.run("intention", "set", "Walk after lunch", "--ai-generated", "--json").object()
        #expect(set["aiGenerated"] as? Bool == true)
        #expect(try await g.run("intention", "set", "Walk after dinner", "--json").object()["aiGenerated"] as? Bool == false)
    }

    @Test func whatARunCannotDoExits64NamingIt() async throws {
        let g = Grove(now: "2025-05-14T09:00:00Z")
        #expect(try await g.run("timer", "add", "Tea", "--duration", "3m").status == 0)
        for (arguments, message) in [
            (["timer", "pause", "tea"], "Tea is not counting down"), (["timer", "stop", "tea"], "Tea is not counting down"),
            (["timer", "start", "coffee"], "No timer with id coffee"),
        ] {
            let result = try await g.run(arguments)
            #expect(result.status == 64 && result.err.contains(message), "\(arguments): \(result.err)")
        }
        #expect(try await g.run("timer", "start", "tea").status == 0)
        let resume = try await g.run("timer", "resume", "tea")
        #expect(resume.status == 64 && resume.err.contains("This timer is not paused"))
    }
}
