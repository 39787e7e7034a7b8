import Foundation
import Testing

@Suite("grove theme edit and rm, end to end")
struct ThemeCommandTests {
    @Test func yourThemesChangeAndGoPresetsStay() async throws {
        let g = Grove()
        #expect(
            try await g.run("theme", "add", "Desert", "--background", "#EDC9AF", "--text", "#3B2F2F", "--accent", "#C2410C").status == 0)
        let edited = try await g.run("theme", "edit", "desert", "--text", "#2B1F1F", "--font", "Georgia", "--no-accent", "--json").object()
        #expect(edited["textColor"] as? String == "#2B1F1F" && edited["fontName"] as? String == "Georgia" && edited["accentColor"] == nil)
        let unreadable = try await g.run("theme", "edit", "Desert", "--text", "#EDC9AF")
        #expect(unreadable.status == 64 && unreadable.err.contains("too alike to read"))
        #expect(try await g.run("theme", "edit", "Serene", "--name", "Mine").status == 64)
        #expect(try await g.run("theme", "edit", "Desert").status == 64)
        #expect(try await g.run("theme", "edit", "Desert", "--font", "A", "--no-font").status == 64)
        #expect(try await g.run("theme", "rm", "Desert").out == "Deleted Desert.\n")
        #expect(try await g.run("theme", "rm", "Desert").status == 64)
        #expect(try await g.run("theme", "rm", "Serene").status == 64)
        #expect(try await g.run("theme", "list", "--json").array().contains { $0["name"] as? String == "Desert" } == false)
    }

    @Test func colorsUnderFourAndAHalfToOneNeedTheOverrideAndGetAWarning() async throws {
        let g = Grove()
        // #767676 on white is 4.54:1 (saved); #888888 on white is 3.5:1 (asks for the override).
        #expect(try await g.run("theme", "add", "Grey", "--background", "#FFFFFF", "--text", "#767676").status == 0)
        let refused = try await g.run("theme", "add", "Faint", "--background", "#FFFFFF", "--text", "#888888")
        #expect(refused.status == 64 && refused.err.contains("3.5:1") && refused.err.contains("--allow-low-contrast"), "\(refused.err)")
        #expect(try await g.run("theme", "list", "--json").array().contains { $0["name"] as? String == "Faint" } == false, "nothing saved")
        let kept = try await g.run("theme", "add", "Faint", "--background", "#FFFFFF", "--text", "#888888", "--allow-low-contrast")
        #expect(kept.status == 0 && kept.err.contains("warning: Faint's text is hard to read at 3.5:1"), "\(kept.err)")
        let never = try await g.run("theme", "edit", "Faint", "--text", "#F4F4F4", "--allow-low-contrast")
        #expect(never.status == 64 && never.err.contains("nothing under 1.5:1"), "\(never.err)")
        let edited = try await g.run("theme", "edit", "Grey", "--text", "#999999")
        #expect(edited.status == 64 && edited.err.contains("--allow-low-contrast"))
    }
}

@Suite("grove setup, end to end")
struct SetupCommandTests {
    @Test func setupAppliesAndSkipMarksItDone() async throws {
        let g = Grove()
        let done = try await g.run("setup", "--focus", "50", "--gate", "youtube,reddit", "--daily", "08:00", "--sample-timers")
        #expect(done.status == 0 && done.out.hasPrefix("Focus 50 min") && done.out.contains("Pausing before: YouTube, Reddit."))
        // The gate and the reminder are told to need `grove serve`, and how to keep it running.
        #expect(
            done.out.contains(
                "The pause in the browser and the reminder need `grove serve` running: `grove service install` starts it with your session."
            ),
            "\(done.out)")
        #expect(try await g.run("setup", "--json").object()["setupNeeded"] as? Bool == false)
        #expect(try await g.run("setup", "--gate", "nope").status == 64)
        #expect(try await g.run("setup", "--skip", "--focus", "25").status == 64)
        let other = Grove()
        #expect(try await other.run("setup", "--skip").out == "Setup skipped; `grove setup` runs it whenever you like.\n")
        #expect(try await other.run("timer", "list", "--json").array().isEmpty)
    }
}
