import Foundation
import Testing

@Suite("grove theme edit and rm, end to end")
struct ThemeCommandTests {
    @Test func yourThemesChangeAndGoPresetsStay() async throws {
        let g = Grove()
        #expect(try await g.run("theme", "add", "Desert", "--background", "#EDC9AF", "--text", "#3B2F2F", "--accent", "#C2410C").status == 0)
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
}
