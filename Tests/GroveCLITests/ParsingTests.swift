import ArgumentParser
import Foundation
import GroveBuildInfo
import GroveCore
import GroveStore
import Testing

@testable import GroveCLI

@Suite("Parsing and rendering (in process)")
struct ParsingTests {
    @Test(arguments: [("25m", 1500.0), ("90s", 90), ("1h30m", 5400), ("1h 30m 10s", 5410), ("25", 1500), ("2h", 7200)])
    func durations(text: String, seconds: Double) {
        #expect(DurationParser.seconds(text) == seconds)
    }

    @Test(arguments: ["", "0", "abc", "5x", "m", "-5m", "10m5"])
    func badDurations(text: String) {
        #expect(DurationParser.seconds(text) == nil)
    }

    /// `grove now` skips ArgumentParser for the forms prompts run, and reads them as it would.
    @Test(
        arguments: [
            (["now"], false, nil), (["now", "--json"], true, nil), (["now", "--database", "/d/g.sqlite"], false, "/d/g.sqlite"),
            (["now", "--database=/d/g.sqlite", "--json"], true, "/d/g.sqlite"),
            (["now", "--json", "--database", "g.sqlite"], true, "g.sqlite"),
        ] as [([String], Bool, String?)])
    func nowFastPathReadsWhatTheFullParseReads(arguments: [String], json: Bool, database: String?) throws {
        let fast = try #require(NowCommand.fastOptions(arguments))
        let full = try #require(try GroveCommand.parseAsRoot(arguments) as? NowCommand)
        #expect(fast.json == json && fast.database == database)
        #expect(full.options.json == json && full.options.database == database)
    }

    /// A status bar's form takes the fast path too, and reads as the full parse does.
    @Test(
        arguments: [
            (["now", "--format", "waybar"], NowFormat.waybar), (["now", "--format=i3blocks"], .i3blocks),
            (["now", "--database", "g.sqlite", "--format", "polybar"], .polybar), (["now", "--format", "json"], .json),
        ] as [([String], NowFormat)])
    func nowFastPathReadsTheFormat(arguments: [String], format: NowFormat) throws {
        #expect(NowCommand.fastOptions(arguments)?.format == format)
        #expect((try GroveCommand.parseAsRoot(arguments) as? NowCommand)?.format == format)
    }

    /// Anything else goes to the full parse, which answers help and explains mistakes.
    @Test(arguments: [
        [], ["stats"], ["now", "--help"], ["now", "-h"], ["now", "--jsn"], ["now", "--database"], ["now", "--database", "--json"],
        ["now", "--database="], ["now", "--json", "--json"], ["now", "extra"], ["intention", "now"],
        ["now", "--database", "a", "--database", "b"], ["now", "--format", "lemonbar"], ["now", "--format"],
        ["now", "--format", "waybar", "--format", "text"],
    ])
    func nowFastPathLeavesEverythingElseToTheFullParse(arguments: [String]) {
        #expect(NowCommand.fastOptions(arguments) == nil)
    }

    /// The everyday commands are parsed by their own command alone, to what the full parse makes of them.
    @Test(arguments: [
        [], ["--json"], ["--database", "g.sqlite"], ["forest"], ["forest", "--json"], ["stats", "--json"], ["review"], ["export"],
        ["export", "--format", "csv"], ["timer"], ["timer", "--json"], ["timer", "list", "--sort", "name"], ["intention"],
        ["intention", "list"], ["focus", "status", "--json"], ["pause", "stats"], ["pause", "weeks"],
    ])
    func everydayFastPathReadsWhatTheFullParseReads(arguments: [String]) throws {
        let fast = try #require(EverydayParse.command(arguments))
        let full = try GroveCommand.parseAsRoot(arguments)
        #expect(type(of: fast) == type(of: full))
        #expect(String(describing: fast) == String(describing: full), "\(fast) \(full)")
    }

    /// Help, mistakes and other subcommands go to the full parse.
    @Test(arguments: [
        ["--help"], ["-h"], ["--version"], ["forest", "--help"], ["forest", "--bogus"], ["timer", "add", "Tea"], ["timer", "Tea"],
        ["intention", "set", "Ship it"], ["intention", "--date", "2026-01-01"], ["--database", "g.sqlite", "forest"], ["stat"],
        ["focus"], ["pause", "youtube"], ["now", "--json"],
    ])
    func everydayFastPathLeavesEverythingElseToTheFullParse(arguments: [String]) {
        #expect(EverydayParse.command(arguments) == nil)
        // Help of a command parsed alone would be named without `grove` ("USAGE: now …").
        #expect(EverydayParse.parse(NowCommand.self, ["--help"]) == nil)
    }

    /// `--version` is answered before ArgumentParser builds its tree, with the line the full parse prints.
    @Test func versionIsAnsweredAsTheFullParseAnswersIt() async throws {
        var printed = ""
        do { _ = try GroveCommand.parseAsRoot(["--version"]) } catch { printed = GroveCommand.fullMessage(for: error) }
        #expect(printed == Build.versionLine)
        let result = try await Grove().run("--version")
        #expect(result.status == 0 && result.out == printed + "\n")
    }

    /// The variables read straight from `environ` are the ones Foundation reads.
    @Test func processVariablesAreFoundationsEnvironment() {
        #expect(CLIEnvironment.processVariables() == ProcessInfo.processInfo.environment)
        #expect(!CLIEnvironment.processVariables().isEmpty)
    }

    @Test func clocks() {
        #expect(DurationParser.clock(1500) == "25:00")
        #expect(DurationParser.clock(0.2) == "00:01", "a fraction of a second left still shows")
        #expect(DurationParser.clock(3725) == "1:02:05")
    }

    @Test func commandsParseToTheRightTypes() throws {
        #expect(try GroveCommand.parseAsRoot(["focus", "start", "--length", "90s"]) is FocusStart)
        #expect(try GroveCommand.parseAsRoot(["focus", "--length", "50m"]) is FocusRun)
        #expect(try GroveCommand.parseAsRoot(["focus"]) is FocusRun)
        #expect(try GroveCommand.parseAsRoot(["timer"]) is TimerList)
        #expect(try GroveCommand.parseAsRoot(["timer", "todo", "move", "w", "2", "1"]) is TodoMove)
        #expect(try GroveCommand.parseAsRoot(["pause", "instagram", "--", "echo", "hi"]) is PauseGate)
        #expect(try GroveCommand.parseAsRoot(["pause", "stats"]) is PauseStats)
        #expect(try GroveCommand.parseAsRoot(["intention"]) is IntentionNow)
        #expect(try GroveCommand.parseAsRoot(["remind", "--weekly", "mon", "09:00"]) is RemindCommand)
        #expect(try GroveCommand.parseAsRoot([]) is GroveCommand)
        let gate = try #require(try GroveCommand.parseAsRoot(["pause", "youtube", "--", "firefox", "--new-window"]) as? PauseGate)
        #expect(gate.command == ["firefox", "--new-window"])
        #expect(throws: (any Error).self) { try GroveCommand.parseAsRoot(["focus", "--bogus"]) }
        #expect(throws: (any Error).self) { try GroveCommand.parseAsRoot(["timer", "add", "X"]) }
    }

    @Test func timesTypedOnTheCommandLine() throws {
        let ny = ZonedCalendar(identifier: "America/New_York")!
        let now = ISO8601DateFormatter().date(from: "2025-03-09T15:00:00Z")!
        #expect(
            try TimeParsing.instant("09:30", field: "start", now: now, calendar: ny)
                == ISO8601DateFormatter().date(from: "2025-03-09T13:30:00Z"))
        #expect(
            try TimeParsing.instant("2025-03-08 23:30", field: "start", now: now, calendar: ny)
                == ISO8601DateFormatter().date(from: "2025-03-09T04:30:00Z"))
        #expect(
            try TimeParsing.instant("2025-03-09T02:00:00-05:00", field: "start", now: now, calendar: ny)
                == ISO8601DateFormatter().date(from: "2025-03-09T07:00:00Z"))
        #expect(throws: InvalidField.self) { try TimeParsing.instant("half past nine", field: "start", now: now, calendar: ny) }
        #expect(try TimeParsing.day("yesterday", today: LocalDay("2025-03-01")!) == LocalDay("2025-02-28"))
    }

    @Test func focusScreenFitsNarrowTerminalsAndHonoursNoColor() throws {
        let session = try FocusSession.start(
            id: UUID(), at: Date(timeIntervalSince1970: 0), plannedDuration: 100, timeZone: TimeZone(identifier: "UTC")!)
        let wide = FocusScreen.lines(session, now: Date(timeIntervalSince1970: 60), traits: .plain)
        #expect(
            wide == [
                "🌿  Sapling", String(repeating: "█", count: 24) + String(repeating: "░", count: 16) + " 60%", "00:40 left · Growing",
                "[p] pause  [a] abandon  [d] detach",
            ])
        let narrow = FocusScreen.lines(
            session, now: Date(timeIntervalSince1970: 60), traits: TerminalTraits(color: false, trueColor: false, width: 30, isTTY: true))
        #expect(narrow.allSatisfy { $0.count <= 30 })
        let colored = FocusScreen.lines(
            session, now: Date(timeIntervalSince1970: 60), traits: TerminalTraits(color: true, trueColor: true, width: 80, isTTY: true))
        #expect(TerminalText.neutralized(colored[2]).contains("\u{1B}["))
        #expect(!TerminalText.neutralized(wide.joined()).contains("\u{1B}["))
    }

    @Test func iCalendarLinesAreFoldedAt75Octets() {
        let folded = GroveStore.ICalendar.fold(String(repeating: "é", count: 60))
        #expect(folded.components(separatedBy: "\r\n").allSatisfy { $0.utf8.count <= 75 })
        #expect(folded.replacingOccurrences(of: "\r\n ", with: "") == String(repeating: "é", count: 60))
    }

    @Test func themedCardsUseTrueColorWhenAvailable() {
        let intention = Intention(id: UUID(), text: "Breathe", scope: .day, date: LocalDay("2025-05-01")!, createdAt: Date())
        let card = IntentionCard.render(
            intention, theme: PresetThemes.ocean,
            calendar: ZonedCalendar(timeZone: TimeZone(identifier: "UTC") ?? .current, firstWeekday: 1),
            traits: TerminalTraits(color: true, trueColor: true, width: 80, isTTY: true))
        #expect(card.contains("48;2;1;87;155"), "Ocean's background #01579B as 24-bit colour")
        let plain = IntentionCard.render(
            intention, theme: PresetThemes.ocean,
            calendar: ZonedCalendar(timeZone: TimeZone(identifier: "UTC") ?? .current, firstWeekday: 1), traits: .plain)
        #expect(plain.contains("│  Breathe"))
        #expect(plain.contains("Day · Thu 1 May 2025"), "labelled with its period")
        let c256 = IntentionCard.render(
            intention, theme: PresetThemes.ocean,
            calendar: ZonedCalendar(timeZone: TimeZone(identifier: "UTC") ?? .current, firstWeekday: 1),
            traits: TerminalTraits(color: true, trueColor: false, width: 80, isTTY: true))
        #expect(c256.contains("48;5;"))
    }

    /// Days, categories and content types are typed as Grove's own vocabularies: any case, the
    /// short and long forms, and anything else refused by the parser with the choices listed.
    @Test func vocabulariesAreArgumentTypes() async throws {
        #expect(Weekday(argument: "Monday") == .monday && Weekday(argument: "SAT") == .saturday && Weekday(argument: "0") == .sunday)
        #expect(Weekday(argument: "funday") == nil && Weekday(argument: "7") == nil)
        #expect(MindfulnessContent.ContentCategory(argument: "Nature") == .nature)
        #expect(MindfulnessContent.ContentCategory(argument: "rocks") == nil)
        #expect(MindfulnessContent.ContentType(argument: "QUOTE") == .quote)
        let remind = try #require(try GroveCommand.parseAsRoot(["remind", "--week-starts", "Monday"]) as? RemindCommand)
        #expect(remind.weekStarts == .monday)

        let grove = Grove(now: "2025-05-01T12:00:00Z")
        let refused = try await grove.run("content", "list", "--category", "rocks")
        #expect(refused.status == 64)
        #expect(refused.err.contains("--category") && refused.err.contains("nature"), "names the option and the choices: \(refused.err)")
        let week = try await grove.run("remind", "--week-starts", "funday")
        #expect(week.status == 64 && week.err.contains("mon"))
        let set = try await grove.run("remind", "--week-starts", "Monday", "--json")
        #expect(try set.object()["firstWeekday"] as? Int == 1)
        let chosen = try await grove.run("content", "categories", "Nature", "STOICISM", "--json")
        #expect(try chosen.json() as? [String] == ["nature", "stoicism"])
    }
}
