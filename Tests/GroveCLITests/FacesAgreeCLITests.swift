import Foundation
import GroveCore
import Testing

/// The CLI's side of the rules every face keeps (the API's side is `GroveServerTests/FacesAgreeAPITests.swift`):
/// the same store operation answers both, in the core's words, with exit 64 where the API answers 4xx.
@Suite("Faces agree: the CLI keeps the rules the API keeps")
struct FacesAgreeCLITests {
    @Test func anIntentionIsEditedWithinItsPeriodOnly() async throws {
        let g = Grove(now: "2025-05-14T09:00:00Z")
        let set = try await g.run("intention", "set", "Write", "--date", "2025-05-14", "--font", "Georgia", "--quote", "Begin", "--json")
        let id = try #require(try set.object()["id"] as? String)
        #expect(try set.object()["customFont"] as? String == "Georgia")
        let moved = try await g.run("intention", "edit", String(id.prefix(8)), "--date", "2025-05-15")
        #expect(moved.status == 64)
        #expect(moved.err.contains("date") && moved.err.contains("date must stay within this intention's day"))
        let edited = try await g.run("intention", "edit", String(id.prefix(8)), "--text", "Write more", "--font", "", "--json")
        #expect(edited.status == 0, "\(edited.err)")
        #expect(try edited.object()["text"] as? String == "Write more")
        #expect(try edited.object()["customFont"] == nil)
        #expect(try edited.object()["quote"] == nil)
        #expect(try await g.run("intention", "edit", "zzzz", "--text", "x").status == 64)
    }

    @Test func aRunningSessionIsAbandonedNotDeleted() async throws {
        let g = Grove(now: "2025-05-14T09:00:00Z")
        let started = try await g.run("focus", "start", "--json")
        let id = try #require((try started.object()["session"] as? [String: Any])?["id"] as? String)
        let removed = try await g.run("focus", "rm", id)
        #expect(removed.status == 64)
        #expect(removed.err == "grove: That session is still running: abandon it (grove focus abandon) instead of deleting it\n")
        #expect(try await g.run("focus", "rm", "last").status == 64)
    }

    @Test("a tree costs a minute of focus: no shorter session, and a stop before it plants none")
    func aTreeCostsAMinute() async throws {
        let g = Grove(now: "2025-05-14T09:00:00Z")
        let short = try await g.run("focus", "start", "--length", "30s")
        #expect(short.status == 64 && short.err.contains("a tree costs at least a minute of focus"), "\(short.err)")
        #expect(try await g.run("focus", "config", "--length", "30s").status == 64)
        #expect(try await g.run("focus", "start", "--open").status == 0)
        let stopped = try await g.run("focus", "stop", now: "2025-05-14T09:00:12Z")
        #expect(stopped.out == "Stopped after 00:12: a tree costs a minute of focus, so none was planted 🍂\n", "\(stopped.out)")
        let stats = try #require(try await g.run("stats", "--json", now: "2025-05-14T09:01:00Z").object()["stats"] as? [String: Any])
        #expect(stats["todaysTrees"] as? Int == 0 && stats["abandonedCount"] as? Int == 1)
        // A minute is a tree: a full tree in every face, drawn as its species (never the seedling of a stage).
        #expect(try await g.run("focus", "start", "--open", now: "2025-05-14T09:02:00Z").status == 0)
        let planted = try await g.run("focus", "stop", now: "2025-05-14T09:03:00Z")
        #expect(planted.out.hasPrefix("Tree planted: 1m of focus") && !planted.out.contains("🌱"), "\(planted.out)")
        let forest = try await g.run("forest", now: "2025-05-14T09:04:00Z").out
        #expect(!forest.contains("🌱") && forest.contains("🍂"), "\(forest)")
        let last = try await g.run("focus", "status", "--json", now: "2025-05-14T09:04:00Z").object()
        #expect(last["treeStage"] as? Int == 5)
    }

    @Test func vocabulariesReadAsTheAPIReadsThem() async throws {
        let g = Grove(now: "2025-05-14T09:00:00Z")
        #expect(try await g.run("content", "list", "--category", "Stoicism").status == 0)
        // Zero is a duration, refused by the seed's own rule and words.
        let zero = try await g.run("timer", "add", "Tea", "--duration", "0")
        #expect(zero.status == 64)
        #expect(zero.err == "grove: Duration must be greater than 0\n")
        #expect(try await g.run("timer", "add", "Tea", "--duration", "0m").err == "grove: Duration must be greater than 0\n")
        let soon = try await g.run("timer", "add", "Tea", "--duration", "soon")
        #expect(soon.err.contains(#"duration must be a duration like 25m, 90s or 1h30m (got "soon")"#))
        let day = try await g.run("intention", "list", "--from", "May")
        #expect(day.status == 64)
        #expect(day.err.contains(#"from must be a date like 2025-03-09 (got "May")"#))
    }

    /// A timer's icon is one of Grove's drawings, typed by its word, or any symbol's name, kept as given
    /// (the seed's `icon`); the terminal shows the word (or that name), never an emoji.
    @Test func aTimersIconIsOneOfGrovesByItsWordOrAnySymbolsName() async throws {
        let g = Grove(now: "2025-05-14T09:00:00Z")
        let star = try await g.run("timer", "add", "Tea", "--duration", "4m", "--icon", "a star!")
        #expect(star.status == 64)
        #expect(
            star.err.contains(
                #"must be one of timer, running, book, coffee, sparkles, leaf, cooking, laptop, weights, rest or a symbol's name"#),
            "\(star.err)")
        #expect(try await g.run("timer", "list", "--json").array().isEmpty, "nothing was added")
        let alarm = try await g.run("timer", "add", "Wake", "--duration", "4m", "--icon", "alarm.fill", "--json")
        #expect(try alarm.object()["icon"] as? String == "alarm.fill", "\(alarm.err)")
        #expect(try await g.run("timer", "show", "Wake").out.contains("(alarm.fill)"))
        let book = try await g.run("timer", "add", "Read", "--duration", "20m", "--icon", "Book", "--json")
        #expect(try book.object()["icon"] as? String == "book.fill")
        let shown = try await g.run("timer", "show", "Read")
        #expect(shown.out.contains("(book)") && !shown.out.contains("book.fill"), "\(shown.out)")
        #expect(try await g.run("timer", "edit", "Read", "--icon", "leaf.fill").status == 0)
        #expect(try await g.run("timer", "edit", "Read", "--icon", "moon phase").status == 64)
        #expect(try await g.run("timer", "show", "Read", "--json").object()["icon"] as? String == "leaf.fill")
    }

    /// During a focus session a gated app waits behind the tree (the web's gateway says the same): a
    /// script or launcher is told and stops, nothing counted, unless it lets the tree wither.
    @Test func aGatedAppDuringFocusWaitsBehindTheGrowingTree() async throws {
        let g = Grove(now: "2025-05-14T09:00:00Z")
        #expect(try await g.run("apps", "enable", "instagram").status == 0)
        #expect(try await g.run("focus", "start", "--length", "25m").status == 0)
        let marker = g.home + "/opened"
        let kept = try await g.run("pause", "instagram", "--choice", "proceed", "--", "/usr/bin/touch", marker)
        #expect(kept.status == 0)
        #expect(kept.out.contains("Back to focus: your tree keeps growing (25:00 left). Instagram was not opened."), "\(kept.out)")
        #expect(!FileManager.default.fileExists(atPath: marker), "the launcher's program did not run")
        #expect(try await g.run("pause", "stats", "--json").array().isEmpty, "nothing counted")
        let json = try await g.run("pause", "instagram", "--choice", "exit", "--json").object()
        #expect(json["growingTree"] as? Bool == true && json["remaining"] as? Double == 1500)
        #expect(
            try await g.run("focus", "status", "--json").object()["session"].flatMap { ($0 as? [String: Any])?["state"] as? String }
                == "active")
        let withered = try await g.run("pause", "instagram", "--choice", "exit", "--let-it-wither")
        #expect(withered.status == 0 && withered.out.contains("The tree withered."), "\(withered.out)")
        let after = try await g.run("focus", "status", "--json").object()["session"] as? [String: Any]
        #expect(after?["state"] as? String != "active", "abandoned: \(String(describing: after))")
        #expect(try await g.run("forest", "--json").array().isEmpty, "no tree")
        #expect(try await g.run("pause", "stats", "--json").array().first?["totalSessions"] as? Int == 1)
    }

    @Test func plantingATreeInsteadAndRemovingShownContent() async throws {
        let g = Grove(now: "2025-05-14T09:00:00Z")
        #expect(try await g.run("apps", "enable", "youtube").status == 0)
        #expect(try await g.run("intention", "set", "One calm hour before noon").status == 0)
        let tree = try await g.run("pause", "youtube", "--choice", "tree")
        #expect(tree.out.contains("A seed is planted instead"))
        // The pause begins with what the person meant to do today.
        #expect(tree.out.contains("Today's intention: One calm hour before noon"), "\(tree.out)")
        // The tree it planted now comes first: the next pause waits behind it (see the growing-tree test).
        #expect(try await g.run("pause", "youtube", "--choice", "tree").out.contains("Back to focus: your tree keeps growing"))
        #expect(try await g.run("focus", "abandon").status == 0)
        let shown = try #require(try await g.run("pause", "youtube", "--choice", "exit", "--json").object()["contentId"] as? String)
        let stats = try await g.run("pause", "stats", "--json").out
        let removed = try await g.run("content", "rm", shown)
        #expect(removed.out.hasPrefix("Retired \(shown)"))
        #expect(try await g.run("pause", "stats", "--json").out == stats)
        #expect(try await g.run("content", "rm", shown).status == 64)
        #expect(try await g.run("content", "list", "--json").out.contains(shown) == false)
    }

    @Test func importOptionsAreReadByTheAPIsRule() async throws {
        let g = Grove(now: "2025-05-14T09:00:00Z")
        let needs = try await g.run("import", "--from", "csv", "/nonexistent.csv")
        #expect(needs.status == 64)
        #expect(needs.err.contains("from csv needs map"))
        #expect(
            try await g.run("import", "--from", "timewarrior", "--map", "start=S", "/nonexistent.json").err.contains("map is for from csv"))
    }
}
