import Foundation
import GroveCore
import GroveStore
import Testing

@testable import GroveCLI

@Suite("grove dashboard (in process)")
struct DashboardTests {
    @Test func dashboardShowsIntentionSessionTreesAndStreak() async throws {
        let clock = TestClock(ISO8601DateFormatter().date(from: "2025-05-14T09:00:00Z")!)
        let db = try AppDatabase.inMemory(environment: .test(clock: clock))
        #expect(try Dashboard.load(from: db).text == "No intention set for today.\nToday: 0 trees, 0m focused\nStreak: 0 days (longest 0)")
        try db.intentions.set("Write the intro", scope: .day)
        try db.focus.log(start: clock.now - 3600, end: clock.now - 2100)
        try db.focus.start(plannedDuration: 600)
        clock.advance(by: 90)
        #expect(
            try Dashboard.load(from: db).text
                == "Intention (day): Write the intro\nFocus: Active, 08:30 left\nToday: 1 tree, 25m focused\nStreak: 1 day (longest 1)")
    }
}

@Suite("grove commands, end to end")
struct CommandTests {
    @Test func dashboardHelpAndCompletions() async throws {
        let g = Grove()
        let dash = try await g.run()
        #expect(dash.status == 0)
        #expect(dash.out.contains("Streak: 0 days"))
        #expect(FileManager.default.fileExists(atPath: g.home + "/grove.sqlite"))
        #expect(try await g.run("--json").object()["stats"] != nil)
        let help = try await g.run("--help")
        #expect(help.status == 0)
        #expect(help.out.contains("Examples:"))
        for sub in ["focus", "timer", "pause", "intention", "remind", "export"] {
            let r = try await g.run(sub, "--help")
            #expect(r.status == 0, "\(sub) --help")
        }
        let completion = try await g.run("--generate-completion-script", "bash")
        #expect(completion.status == 0)
        #expect(completion.out.contains("grove"))
        let bad = try await g.run("--no-such-flag")
        #expect(bad.status == 64)
        #expect(bad.err.contains("no-such-flag"))
        #expect(try await g.run("no-such-command").status == 64)
    }

    @Test func databaseOptionOverridesGroveHome() async throws {
        let g = Grove()
        let path = g.home + "-elsewhere/mine.sqlite"
        // A given path's directory must exist (Grove creates only its default one: HostileInputTests).
        try FileManager.default.createDirectory(atPath: g.home + "-elsewhere", withIntermediateDirectories: true)
        #expect(
            try await g.run("focus", "log", "--start", "09:00", "--end", "09:25", "--database", path, now: "2025-05-01T12:00:00Z").status
                == 0)
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(
            try await g.run("stats", "--json", "--database", path, now: "2025-05-01T12:00:00Z").object()["stats"].flatMap {
                ($0 as? [String: Any])?["totalTrees"] as? Int
            } == 1)
        #expect(
            try await g.run("stats", "--json", now: "2025-05-01T12:00:00Z").object()["stats"].flatMap {
                ($0 as? [String: Any])?["totalTrees"] as? Int
            } == 0)
    }

    @Test func focusLifecycleAndJSONShape() async throws {
        let g = Grove(now: "2025-05-01T09:00:00Z")
        let started = try await g.run("focus", "start", "--length", "90s", "--json")
        #expect(started.status == 0)
        let session = try #require(try started.object()["session"] as? [String: Any])
        #expect(session["state"] as? String == "active")
        #expect(session["plannedDuration"] as? Double == 90)
        for key in ["id", "startTime", "duration", "pausedDuration", "createdAt", "timeZoneIdentifier"] {
            #expect(session[key] != nil, "\(key)")
        }
        #expect(try started.object()["remaining"] as? Double == 90)
        let before = try await g.snapshot()
        let again = try await g.run("focus", "start")
        #expect(again.status == 64)
        #expect(again.err == "grove: A focus session is already running; finish or abandon it first\n")
        #expect(try await g.run("focus", "resume").status == 64)
        #expect(try await g.snapshot() == before)
        #expect(try await g.run("focus", "pause").out.hasPrefix("Paused: "))
        #expect(
            try await g.run("focus", "status", "--json").object()["session"].flatMap { ($0 as? [String: Any])?["state"] as? String }
                == "paused")
        #expect(try await g.run("focus", "resume").status == 0)
        let abandoned = try await g.run("focus", "abandon", "--json")
        #expect(try (abandoned.object()["session"] as? [String: Any])?["state"] as? String == "abandoned")
        #expect(try await g.run("focus", "pause").status == 64)
        #expect(try await g.run("focus", "start", "--length", "5h").err.contains("Session length must be at most 4 hours"))
        #expect(try await g.run("focus", "start", "--length", "soon").status == 64)
        #expect(try await g.run("focus", "status").out.contains("abandoned"))
    }

    @Test func aSessionNobodyWatchesCompletesOnTime() async throws {
        let g = Grove()
        try await g.run("focus", "start", "--length", "10m", now: "2025-05-01T09:00:00Z")
        let status = try await g.run("focus", "status", "--json", now: "2025-05-01T12:00:00Z")
        let session = try #require(try status.object()["session"] as? [String: Any])
        #expect(session["state"] as? String == "completed")
        #expect(session["endTime"] as? String == "2025-05-01T09:10:00.000Z")
        #expect(try await g.run("forest", "--json", now: "2025-05-01T12:00:00Z").array().count == 1)
    }

    @Test func focusLogForestStatsAndConfig() async throws {
        let g = Grove(now: "2025-05-03T12:00:00Z")
        #expect(
            try await g.run("focus", "log", "--start", "2025-05-01 09:00", "--end", "2025-05-01 09:30", "--pause", "09:10-09:15").status
                == 0)
        #expect(try await g.run("focus", "log", "--start", "2025-05-02 09:00", "--end", "2025-05-02 09:25").status == 0)
        #expect(try await g.run("focus", "log", "--start", "10:00", "--end", "10:05", "--abandoned", "--length", "25m").status == 0)
        let before = try await g.snapshot()
        for bad in [
            ["--start", "10:00", "--end", "09:00"], ["--start", "10:00", "--end", "11:00", "--pause", "09:00-09:10"],
            ["--start", "noon", "--end", "13:00"], ["--start", "13:00", "--end", "13:30", "--zone", "Mars/Base"],
        ] {
            let r = try await g.run(["focus", "log"] + bad)
            #expect(r.status == 64, "\(bad)")
            #expect(r.err.hasPrefix("grove: "))
            #expect(r.err.split(separator: "\n").count == 1, "one line")
        }
        #expect(try await g.snapshot() == before)
        let stats = try #require(try await g.run("stats", "--json").object()["stats"] as? [String: Any])
        #expect(stats["totalTrees"] as? Int == 2)
        #expect(stats["abandonedCount"] as? Int == 1)
        #expect(stats["currentStreak"] as? Int == 2)
        #expect(stats["averageSessionsPerDay"] as? Double == 1)
        #expect(try await g.run("stats", "--json").object()["week"].flatMap { $0 as? [Any] }?.count == 7)
        let text = try await g.run("stats").out
        #expect(text.contains("Last 12 months"))
        #expect(text.contains("This week"))
        let forest = try await g.run("forest").out
        // The abandoned session of the 3rd stands as a withered tree; each tree a conifer or a broadleaf by its id.
        let rows = forest.split(separator: "\n").map(String.init)
        #expect(rows.first == "2025-05-03  🍂", "\(forest)")
        #expect(rows.count == 4 && ["🌲", "🌳"].contains(String(rows[1].dropFirst(12))) && rows[2].hasPrefix("2025-05-01  "), "\(forest)")
        #expect(rows.last == "2 trees · 1 withered 🍂")
        #expect(try await g.run("forest", "--limit", "1", "--json").array().count == 1)
        #expect(try await g.run("forest", "--limit", "0").status == 64)
        // A window of days, and where older days continue.
        let window = try await g.run("forest", "--days", "1").out
        #expect(
            window.hasPrefix("2025-05-03  🍂\n2 trees (showing 0) · 1 withered 🍂 · older: grove forest --before 2025-05-03"), "\(window)")
        #expect(try await g.run("forest", "--days", "1", "--before", "2025-05-02").out.hasPrefix("2025-05-01  "))
        #expect(try await g.run("forest", "--before", "2025-05-01").out.contains("No trees before 2025-05-01."))
        #expect(try await g.run("forest", "--days", "2", "--json").array().count == 1, "completed sessions only")
        #expect(try await g.run("forest", "--days", "0").status == 64)
        #expect(try await g.run("forest", "--before", "someday").status == 64)
        #expect(try await g.run("focus", "config", "--length", "50m", "--json").object()["focusDuration"] as? Double == 3000)
        #expect(try await g.run("focus", "config", "--short-break", "2h").status == 64)
    }

    @Test func timersAndTodos() async throws {
        let g = Grove(now: "2025-05-01T09:00:00Z")
        let added = try await g.run(
            "timer", "add", "Workout", "--duration", "25m", "--color", "#FF3B30", "--todo", "Warm up", "--todo", "Push-ups", "--json")
        #expect(added.status == 0)
        let dto = try added.object()
        #expect(dto["durationInSeconds"] as? Int == 1500)
        #expect(dto["colorHex"] as? String == "#FF3B30")
        #expect((dto["todoItems"] as? [[String: Any]])?.map { $0["text"] as? String } == ["Warm up", "Push-ups"])
        #expect(dto["schemaVersion"] as? Int == 1)
        let before = try await g.snapshot()
        let empty = try await g.run("timer", "add", " ", "--duration", "5m")
        #expect(empty.status == 64)
        #expect(empty.err == "grove: Timer name cannot be empty\n")
        #expect(try await g.run("timer", "add", "Long", "--duration", "25h").err == "grove: Duration cannot exceed 24 hours\n")
        #expect(try await g.run("timer", "todo", "add", "workout", "  ").err == "grove: To-do text cannot be empty\n")
        #expect(try await g.run("timer", "show", "nope").status == 64)
        #expect(try await g.run("timer", "todo", "toggle", "workout", "9").status == 64)
        #expect(try await g.snapshot() == before)
        #expect(try await g.run("timer", "todo", "toggle", "workout", "2").out == "2. [x] Push-ups\n")
        #expect(try await g.run("timer", "todo", "move", "workout", "2", "1").out == "  1. [x] Push-ups\n  2. [ ] Warm up\n")
        #expect(try await g.run("timer", "todo", "add", "WORKOUT", "Stretch").out == "3. [ ] Stretch\n")
        #expect(try await g.run("timer", "todo", "rm", "workout", "3").status == 0)
        #expect(try await g.run("timer", "edit", "workout", "--name", "Morning workout", "--duration", "30m").status == 0)
        #expect(try await g.run("timer", "list", "--json").array().first?["name"] as? String == "Morning workout")
        try await g.run("timer", "add", "Abs", "--duration", "10m")
        #expect(
            try await g.run("timer", "list", "--sort", "name", "--json").array().map { $0["name"] as? String } == [
                "Abs", "Morning workout",
            ])
        #expect(try await g.run("timer", "list", "--incomplete", "--json").array().map { $0["name"] as? String } == ["Morning workout"])
        #expect(try await g.run("timer", "list", "--sort", "color").status == 64)
        #expect(try await g.run("timer", "show", "abs").out.contains("10:00"))
        #expect(try await g.run("timer", "rm", "morning workout").out.contains("2 to-dos"))
        #expect(try await g.run("timer", "list", "--json").array().count == 1)
        #expect(try await g.run("timer", "run", "abs").status == 64, "run needs a terminal")
    }

    @Test func aSessionLoggedTwiceIsRefusedAndAMistakeCanBeRemoved() async throws {
        let g = Grove(now: "2025-05-01T12:00:00Z")
        let logged = try await g.run("focus", "log", "--start", "09:00", "--end", "09:25")
        #expect(logged.status == 0)
        let id = try #require(
            logged.out.range(of: #"id [0-9a-f]{8}"#, options: .regularExpression).map { String(logged.out[$0].dropFirst(3)) })
        let again = try await g.run("focus", "log", "--start", "09:00", "--end", "09:25")
        #expect(
            again.status == 64 && again.err.contains("overlaps the session recorded at 2025-05-01 09:00")
                && again.err.contains("grove focus rm \(id)"), "\(again.err)")
        #expect(try await g.run("stats", "--json").object()["stats"].flatMap { ($0 as? [String: Any])?["totalTrees"] as? Int } == 1)
        #expect(try await g.run("focus", "rm", id).out.hasPrefix("Removed the completed session of 2025-05-01"))
        #expect(try await g.run("stats", "--json").object()["stats"].flatMap { ($0 as? [String: Any])?["totalTrees"] as? Int } == 0)
        #expect(try await g.run("focus", "rm", id).status != 0)
        #expect(try await g.run("focus", "rm", "xyz").status == 64)
        // `last` undoes the latest log; with nothing left it says so.
        #expect(try await g.run("focus", "log", "--start", "08:00", "--end", "08:20").status == 0)
        #expect(try await g.run("focus", "log", "--start", "10:00", "--end", "10:50").status == 0)
        #expect(try await g.run("focus", "rm", "last").out.hasPrefix("Removed the completed session of 2025-05-01 (50m of focus)"))
        #expect(try await g.run("focus", "rm", "last").out.contains("(20m of focus)"))
        let none = try await g.run("focus", "rm", "last")
        #expect(none.status == 64 && none.err.contains("No focus sessions yet"))
    }

    @Test func pauseAppsAndContent() async throws {
        let g = Grove(now: "2025-05-01T09:00:00Z")
        #expect(try await g.run("apps", "enable", "instagram").status == 0)
        let exit = try await g.run("pause", "instagram", "--choice", "exit", "--json")
        #expect(exit.status == 0)
        let session = try exit.object()
        #expect(session["completionStatus"] as? String == "exited")
        #expect(session["actionOutcome"] as? String == "exit_to_home")
        #expect(session["appId"] as? String == "instagram")
        #expect(
            try await g.run("pause", "instagram", "--choice", "tree").out.contains(
                "Tried to open Instagram through Grove 1 time already today"))
        #expect(
            try await g.run("focus", "status", "--json").object()["session"].flatMap { ($0 as? [String: Any])?["state"] as? String }
                == "active")
        #expect(try await g.run("pause", "ghost", "--choice", "exit").err == "grove: No app with id \"ghost\"\n")
        let maybe = try await g.run("pause", "instagram", "--choice", "maybe")
        #expect(maybe.status == 64 && maybe.err.contains(#"choice must be one of proceed, exit, tree (got "maybe")"#), "\(maybe.err)")
        let stats = try await g.run("pause", "stats", "--json").array()
        #expect(stats.first?["totalSessions"] as? Int == 2)
        // "Exit to Focus" once; "plant a tree instead" is not an exit (seed 003's exitedSessions).
        #expect(stats.first?["exitedSessions"] as? Int == 1)
        // Neither pause opened the app: both count as not opened, under one meaning of each word.
        #expect(stats.first?["notOpenedSessions"] as? Int == 2)
        let table = try await g.run("pause", "stats").out
        #expect(table.contains("Not opened: the app or site was not opened after the pause"), "\(table)")
        #expect(table.contains("Left: chose Exit to Focus, during the pause or after it") && !table.contains("exit or tree"))
        #expect(stats.first?["meetsTarget"] as? Bool == false)
        #expect(stats.first?["id"] as? String == "2025-05-01_instagram")
        // A gate switched off lets the app through: no pause, not counted.
        #expect(try await g.run("apps", "disable", "instagram").status == 0)
        #expect(try await g.run("pause", "instagram", "--choice", "exit").out.contains("Instagram is not gated"))
        #expect(try await g.run("pause", "stats", "--json").array().first?["totalSessions"] as? Int == 2)
        // Apps
        #expect(
            try await g.run(
                "apps", "add", "hn", "--name", "Hacker News", "--scheme", "hn://", "--url", "https://news.ycombinator.com/", "--enable"
            ).status == 0)
        #expect(
            try await g.run("apps", "add", "Bad_Id", "--name", "B", "--scheme", "b://").err.contains(
                "lowercase letters, digits and hyphens"))
        #expect(try await g.run("apps", "add", "x2", "--name", "B", "--scheme", "b").err.contains("\"://\""))
        #expect(try await g.run("apps", "disable", "hn").status == 0)
        // Only a part of a site (YouTube's Shorts): kept in one form, shown, refused by name when not a path.
        #expect(try await g.run("apps", "paths", "youtube", "/Shorts/").out.contains("only /shorts is gated"))
        #expect(try await g.run("apps", "list").out.contains("(only /shorts)"))
        let notAPath = try await g.run("apps", "paths", "youtube", "/a b")
        #expect(notAPath.status == 64 && notAPath.err.contains("A gated path is a part of the site"), "\(notAPath.err)")
        #expect(try await g.run("apps", "paths", "youtube", "--json").object()["gatedPaths"] as? [String] == [])
        #expect(try await g.run("apps", "enable", "nope").status == 64)
        #expect(try await g.run("apps", "duration", "30s", "--json").object()["timerDuration"] as? Int == 30)
        #expect(try await g.run("apps", "duration", "50s").err.contains("15-45 seconds"))
        #expect(try await g.run("apps", "--json").array().contains { $0["id"] as? String == "hn" })
        #expect(try await g.run("apps", "rm", "hn").status == 0)
        // Content
        let text = "What are you hoping to find in there right now, and is it really there?"
        #expect(
            try await g.run("content", "add", "--type", "prompt", "--category", "mindfulness", "--text", text, "--id", "mine").status == 0)
        #expect(
            try await g.run("content", "add", "--type", "prompt", "--category", "mindfulness", "--text", "too short").err.contains("50-750")
        )
        #expect(try await g.run("content", "add", "--type", "poem", "--category", "mindfulness", "--text", text).status == 64)
        // An id in use is refused by name (adding never replaces an item), as the API refuses it.
        let taken = try await g.run("content", "add", "--type", "prompt", "--category", "nature", "--text", text, "--id", "mine")
        #expect(taken.status == 64 && taken.err.contains(#"An item with id "mine" already exists"#), "\(taken.err)")
        #expect(
            try await g.run("content", "list", "--category", "mindfulness", "--json").array().contains { $0["id"] as? String == "mine" })
        let pack = g.home + "-pack.json"
        try Data(
            #"[{"id": "pack-1", "type": "quote", "category": "nature", "text": "In every walk with nature one receives far more than he seeks.", "author": "John Muir"}]"#
                .utf8
        ).write(to: URL(fileURLWithPath: pack))
        #expect(try await g.run("content", "import", pack).out == "Imported 1 item.\n")
        #expect(try await g.run("content", "categories", "stoicism", "nature", "--json").json() as? [String] == ["nature", "stoicism"])
        #expect(try await g.run("content", "categories", "poetry").status == 64)
    }

    @Test func intentionsThemesAndReminders() async throws {
        let g = Grove(now: "2025-05-14T09:00:00Z")
        let week = try await g.run("intention", "set", "Finish the essay draft", "--scope", "week")
        #expect(
            week.out == "Week intention for the week of 2025-05-12 to 2025-05-18: Finish the essay draft\n", "a week is named as a week")
        #expect(try await g.run("intention", "--json").object()["scope"] as? String == "week")
        #expect(
            try await g.run("intention", "set", "A calm month", "--scope", "month").out == "Month intention for May 2025: A calm month\n")
        #expect(try await g.run("intention", "set", "One page before lunch").status == 0)
        let now = try await g.run("intention", "now", "--json").object()
        #expect(now["text"] as? String == "One page before lunch")
        #expect(now["scope"] as? String == "day")
        #expect(
            try await g.run("intention", "now", "--date", "2025-05-15", "--json").object()["text"] as? String == "Finish the essay draft")
        #expect(try await g.run("intention", "set", "  ").err == "grove: Intention text cannot be empty\n")
        #expect(try await g.run("intention", "set", "x", "--scope", "year").status == 64)
        #expect(try await g.run("intention", "set", "x", "--date", "someday").status == 64)
        #expect(try await g.run("intention", "search", "ESSAY", "--json").array().count == 1)
        #expect(try await g.run("intention", "list", "--scope", "day", "--json").array().count == 1)
        #expect(try await g.run("intention", "list", "--from", "2025-05-01", "--to", "2025-05-31", "--json").array().count == 3)
        let rephrased = try await g.run("intention", "rephrase", "--apply", "--json").object()
        #expect(rephrased["aiRephrased"] as? Bool == true)
        #expect((rephrased["text"] as? String)?.contains("one page before lunch") == true)
        let id = try #require(rephrased["id"] as? String)
        #expect(try await g.run("intention", "rm", String(id.prefix(8))).status == 0)
        #expect(try await g.run("intention", "--json").object()["scope"] as? String == "week")
        // Themes
        #expect(
            try await g.run("theme", "--json").array().prefix(5).map { $0["name"] as? String } == [
                "Serene", "Vibrant", "Minimal", "Sunset", "Ocean",
            ])
        #expect(try await g.run("theme", "add", "Desert", "--background", "#EDC9AF", "--text", "#3B2F2F").status == 0)
        #expect(
            try await g.run("theme", "add", "Bad", "--background", "sand", "--text", "#000000").err.contains(
                "background must be a hex colour"))
        let unreadable = try await g.run("theme", "add", "Glare", "--background", "#FFEB3B", "--text", "#FFFFFF")
        #expect(unreadable.status == 64 && unreadable.err.contains("too alike to read (contrast 1.2:1"), "\(unreadable.err)")
        #expect(try await g.run("theme", "generate", " ").status == 64)
        let generated = try await g.run("theme", "generate", "night forest", "--json").object()
        #expect(generated["isAIGenerated"] as? Bool == true)
        #expect(try await g.run("theme", "default", "ocean").status == 0)
        #expect(try await g.run("theme", "default", "nope").status == 64)
        #expect(try await g.run("intention", "set", "Themed", "--theme", "Desert", "--json").object()["themeId"] != nil)
        // Reminders
        let remind = try await g.run("remind", "--daily", "08:00", "--weekly", "sun", "18:00", "--monthly", "31", "09:00", "--json")
            .object()
        let next = try #require(remind["next"] as? [[String: Any]])
        #expect(next.map { $0["kind"] as? String } == ["daily", "weekly", "monthly"])
        #expect(next.first?["at"] as? String == "2025-05-15T08:00:00.000Z")
        #expect(next.last?["at"] as? String == "2025-05-31T09:00:00.000Z")
        let before = try await g.snapshot()
        #expect(try await g.run("remind", "--monthly", "32", "09:00").err == "grove: monthly must be 1-31 (got 32)\n")
        #expect(try await g.run("remind", "--weekly", "someday", "09:00").status == 64)
        #expect(try await g.run("remind", "--daily", "25:00").status == 64)
        #expect(try await g.run("remind", "--zone", "Mars/Base").err.contains("Unknown time zone"))
        #expect(try await g.snapshot() == before)
        #expect(
            try await g.run("remind", "--zone", "America/New_York", "--json").object()["timeZoneIdentifier"] as? String
                == "America/New_York")
        #expect(try await g.run("remind").out.contains("Daily    at 08:00"))
    }

    @Test func nowLineForPromptsAndStatusBars() async throws {
        let g = Grove(now: "2025-05-14T09:00:00Z")
        #expect(try await g.run("now").out == "")
        try await g.run("intention", "set", "Ship it", "--scope", "month")
        #expect(try await g.run("now").out == "◎ Ship it\n")
        try await g.run("focus", "start", "--length", "25m")
        #expect(try await g.run("now", now: "2025-05-14T09:10:00Z").out == "🌱 15:00\n")
        #expect(try await g.run("now", "--json", now: "2025-05-14T09:10:00Z").object()["remaining"] as? Double == 900)
    }

    @Test func exportImportRoundTripAndFormats() async throws {
        let g = Grove(now: "2025-05-14T09:00:00Z")
        try await g.run("focus", "log", "--start", "08:00", "--end", "08:25")
        try await g.run("timer", "add", "Tea", "--duration", "4m", "--todo", "Kettle")
        try await g.run("intention", "set", "Rest well")
        let file = g.home + "-export.json"
        #expect(try await g.run("export", "--output", file).status == 0)
        #expect(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int == 0o600, "an export is owner-only")
        // A device or a pipe is written into, never replaced (as root, a rename would swap /dev/null
        // for a regular file); a directory is refused.
        #expect(try await g.run("export", "--output", "/dev/null").status == 0)
        #expect(try FileManager.default.attributesOfItem(atPath: "/dev/null")[.type] as? FileAttributeType == .typeCharacterSpecial)
        #expect(try await g.run("export", "--output", FileManager.default.temporaryDirectory.path).status == 64)
        let other = Grove(now: "2025-05-14T09:00:00Z")
        let imported = try await other.run("import", file)
        #expect(imported.out == "Imported 1 focus session, 1 timer, 1 intention, 0 pauses.\n")
        #expect(try await other.snapshot() == g.snapshot())
        let csv = try await g.run("export", "--format", "csv").out
        #expect(csv.hasPrefix("id,startTime,endTime,state,duration,pausedDuration,plannedDuration,timeZone,endDay,tags\r\n"))
        let ics = try await g.run("export", "--format", "ics").out
        #expect(ics.hasPrefix("BEGIN:VCALENDAR\r\n"))
        #expect(ics.contains("DTSTART:20250514T080000Z"))
        #expect(try await g.run("export", "--format", "pdf").status == 64)
        #expect(try await g.run("import", g.home + "-missing.json").status == 64)
        let garbage = g.home + "-garbage.json"
        try Data("{\"hello\": 1}".utf8).write(to: URL(fileURLWithPath: garbage))
        let before = try await other.snapshot()
        #expect(try await other.run("import", garbage).status == 64)
        #expect(try await other.snapshot() == before)
    }

    /// DESIGN.md: sessions logged across both 2025 New York DST changes give the right streaks.
    @Test func newYorkStreaksAcrossBothDSTChanges() async throws {
        let g = Grove(timeZone: "America/New_York", now: "2025-11-04T15:00:00Z")
        // Five nights around the spring change (23:30 local), then six nights around the autumn one.
        for day in ["2025-03-07", "2025-03-08", "2025-03-09", "2025-03-10", "2025-03-11"] {
            #expect(try await g.run("focus", "log", "--start", "\(day) 23:05", "--end", "\(day) 23:30").status == 0)
        }
        for day in ["2025-10-30", "2025-10-31", "2025-11-01", "2025-11-02", "2025-11-03", "2025-11-04"] {
            #expect(try await g.run("focus", "log", "--start", "\(day) 00:30", "--end", "\(day) 00:55").status == 0)
        }
        let stats = try #require(try await g.run("stats", "--json").object()["stats"] as? [String: Any])
        #expect(stats["currentStreak"] as? Int == 6)
        #expect(stats["longestStreak"] as? Int == 6)
        #expect(stats["todaysTrees"] as? Int == 1)
        // The spring run is 5 long: ask on the 12th.
        let spring = try #require(try await g.run("stats", "--json", now: "2025-03-12T16:00:00Z").object()["stats"] as? [String: Any])
        #expect(spring["currentStreak"] as? Int == 5)
        // Late on the 5th of November (still the 5th in New York, already the 6th in UTC) the run is alive.
        let late = try #require(try await g.run("stats", "--json", now: "2025-11-06T04:30:00Z").object()["stats"] as? [String: Any])
        #expect(late["currentStreak"] as? Int == 6)
        let dead = try #require(try await g.run("stats", "--json", now: "2025-11-06T05:30:00Z").object()["stats"] as? [String: Any])
        #expect(dead["currentStreak"] as? Int == 0)
    }
}
