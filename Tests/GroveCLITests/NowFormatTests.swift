import Foundation
import Testing

@testable import GroveCLI

/// `grove now --format waybar|i3blocks|polybar`: a line, a tooltip and a state a bar can style.
@Suite("grove now in a status bar")
struct NowFormatTests {
    @Test("idle, a running session, a paused one, a timer that rang: each format says it")
    func formats() async throws {
        let g = Grove(now: "2025-05-14T09:00:00Z")
        let idle = try await g.run("now", "--format", "waybar")
        let quiet = try #require(try JSONSerialization.jsonObject(with: Data(idle.out.utf8)) as? [String: String])
        #expect(quiet["class"] == "idle" && quiet["text"] == "" && quiet["tooltip"] == "Grove: nothing running")

        #expect(try await g.run("focus", "start", "--length", "25m", "--tag", "thesis").status == 0)
        let running = try await g.run("now", "--format", "waybar", now: "2025-05-14T09:05:00Z")
        let bar = try #require(try JSONSerialization.jsonObject(with: Data(running.out.utf8)) as? [String: String])
        #expect(bar["class"] == "focus" && bar["alt"] == "focus")
        #expect(bar["text"]?.hasSuffix("20:00") == true)
        #expect(bar["tooltip"] == "Focus for thesis: 20:00 left of 25:00")
        #expect(running.out.split(separator: "\n").count == 1, "one object per line")

        let blocks = try await g.run("now", "--format", "i3blocks", now: "2025-05-14T09:05:00Z")
        let lines = blocks.out.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 4 && lines[2] == "#4CAF50", "full text, short text, colour")

        #expect(try await g.run("focus", "pause", now: "2025-05-14T09:05:00Z").status == 0)
        let paused = try await g.run("now", "--format", "polybar", now: "2025-05-14T09:06:00Z")
        #expect(paused.out.hasPrefix("%{F#E0A100}") && paused.out.hasSuffix("%{F-}\n") && paused.out.contains("paused"))
        #expect(try await g.run("focus", "abandon", now: "2025-05-14T09:06:00Z").status == 0)

        #expect(try await g.run("timer", "add", "Tea", "--duration", "3m").status == 0)
        #expect(try await g.run("timer", "start", "Tea", now: "2025-05-14T09:10:00Z").status == 0)
        let rang = try await g.run("now", "--format", "waybar", now: "2025-05-14T09:14:00Z")
        let done = try #require(try JSONSerialization.jsonObject(with: Data(rang.out.utf8)) as? [String: String])
        #expect(done["class"] == "done" && done["tooltip"]?.contains("Tea") == true)
    }

    @Test("markup and line breaks in a person's words reach each bar as text, on one line")
    func escapedForEachReader() async throws {
        let g = Grove(now: "2025-05-14T09:00:00Z")
        #expect(try await g.run("intention", "set", "Tom & Jerry <3\nthen rest").status == 0)
        let waybar = try await g.run("now", "--format", "waybar")
        #expect(waybar.out.split(separator: "\n").count == 1)
        let bar = try #require(try JSONSerialization.jsonObject(with: Data(waybar.out.utf8)) as? [String: String])
        #expect(bar["text"]?.contains("Tom &amp; Jerry &lt;3 then rest") == true, "\(bar)")
        #expect(bar["tooltip"]?.contains("&lt;3") == true && bar["tooltip"]?.contains("<") == false)
        for format in ["i3blocks", "polybar", "text"] {
            let out = try await g.run("now", "--format", format).out
            let first = out.split(separator: "\n", omittingEmptySubsequences: false).first ?? ""
            #expect(first.contains("Tom & Jerry <3 then rest"), "\(format): \(out)")
        }
        let blocks = try await g.run("now", "--format", "i3blocks").out.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(blocks.count == 4, "full text, short text, colour, and the end: \(blocks)")
    }

    @Test("polybar's format tags are not read from a person's words")
    func polybarEscapes() {
        var report = NowCommand.Report(text: "100% %{F#fff}")
        report.timers = []
        #expect(NowFormat.polybar.render(report) == "100%% %%{F#fff}")
    }
}
