import ArgumentParser
import Foundation
import GroveCore
import GroveSystem
import GroveStore

/// `grove pause <app> [-- command …]` and `grove pause stats`.
struct PauseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pause", abstract: "Take a mindful pause before opening an app or site.",
        discussion: "  grove pause instagram -- xdg-open https://www.instagram.com/\n  grove pause stats",
        subcommands: [PauseGate.self, PauseStats.self],
        defaultSubcommand: PauseGate.self)
}

/// The pause itself (the default of `grove pause`).
struct PauseGate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gate", abstract: "Take a mindful pause before opening an app or site (the default).",
        discussion: """
            Shows how many times today you opened the app through Grove, then a quote, excerpt or \
            prompt with a countdown (15–45 s, `grove apps duration`). Then proceed (runs the command, \
            or opens the app's web URL), exit, or plant a tree instead. Keys during the countdown: \
            e exit, t plant a tree instead.
              grove pause instagram -- xdg-open https://www.instagram.com/
              alias yt='grove pause youtube -- firefox https://youtube.com'
            """)

    @OptionGroup var options: GlobalOptions
    @Argument(help: "The app's id (see `grove apps`).") var app: String
    @Option(name: .long, help: "Decide without asking: proceed, exit or tree (for scripts).") var choice: String?
    @Argument(parsing: .postTerminator, help: "The command to run if you proceed.") var command: [String] = []

    enum Choice: String { case proceed, exit, tree }

    func run() throws {
        let decided = try choice.map { c -> Choice in
            guard let value = Choice(rawValue: c) else { throw InvalidField("choice", "choice must be proceed, exit or tree (got \"\(c)\")") }
            return value
        }
        let db = try options.open()
        guard let app = try db.app(id: self.app) else { throw PauseValidationError.unknownApp(self.app) }
        let attempts = try db.attemptsToday(appId: app.id)
        let (session, content) = try db.startGatewaySession(appId: app.id, platform: "linux-cli")
        let traits = TerminalTraits.current()
        let style = Style(traits)
        if !options.json {
            print(style.dim(attempts == 0 ? "First time opening \(app.displayName) through Grove today." :
                                "Opened \(app.displayName) through Grove \(attempts) time\(attempts == 1 ? "" : "s") already today."))
            print("")
            for line in Wrap.lines(content.text, width: min(72, traits.width - 4)) { print("  " + style.bold(line)) }
            if let author = content.author { print("  " + style.dim("— \(author)")) }
            print("")
        }
        // Quick decisions skip the countdown only to leave early; proceeding needs the full pause.
        if decided == .exit || decided == .tree {
            return try finish(db, session, app: app, status: .exited, outcome: decided == .tree ? .deepenPause : .exitToHome)
        }
        let terminal = RawTerminal()
        defer { terminal?.restore() }
        let clock = ContinuousClock()
        let end = clock.now.advanced(by: .seconds(session.durationSetting))
        while true {
            let d = clock.now.duration(to: end)
            let left = max(0, Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18)
            if !options.json {
                FileHandle.standardOutput.write(Data("\r\u{1B}[2K  \(style.cyan("Breathe")) \(DurationParser.clock(left))  \(style.dim(terminal == nil ? "" : "[e] exit  [t] plant a tree"))".utf8))
            }
            if left <= 0 { break }
            let wait = max(0.05, left - left.rounded(.down))
            if let terminal {
                switch terminal.readKey(timeout: wait) {
                case "e", "q", "\u{03}", "\u{1B}":
                    print("")
                    return try finish(db, session, app: app, status: .exited, outcome: .exitToHome)
                case "t":
                    print("")
                    return try finish(db, session, app: app, status: .exited, outcome: .deepenPause)
                default: break
                }
            } else {
                Thread.sleep(forTimeInterval: wait)
            }
        }
        if !options.json { print("") }
        var picked = decided
        if picked == nil, let terminal {
            print("[p] proceed to \(app.displayName)  [e] exit  [t] plant a tree instead")
            switch terminal.readKey(timeout: 120) {
            case "p": picked = .proceed
            case "t": picked = .tree
            default: picked = .exit
            }
        }
        switch picked ?? .exit {
        case .proceed: try finish(db, session, app: app, status: .completed, outcome: .proceedToApp)
        case .exit: try finish(db, session, app: app, status: .completed, outcome: .exitToHome)
        case .tree: try finish(db, session, app: app, status: .completed, outcome: .deepenPause)
        }
    }

    private func finish(_ db: AppDatabase, _ session: GatewaySession, app: SocialApp, status: GatewaySession.CompletionType,
                        outcome: GatewaySession.ActionType) throws {
        let ended = try db.finishGatewaySession(id: session.id, status: status, outcome: outcome)
        if options.json { try Output.json(ended) }
        switch outcome {
        case .proceedToApp:
            if !options.json { print("Going on to \(app.displayName), mindfully.") }
            try proceed(app)
        case .exitToHome:
            if !options.json { print("Good call. \(app.displayName) will still be there later.") }
        case .deepenPause:
            let focus = try db.startFocusSession()
            if !options.json { print("A seed is planted instead: \(DurationParser.clock(focus.plannedDuration)) of focus. Follow it with `grove focus`.") }
        }
    }

    private func proceed(_ app: SocialApp) throws {
        var arguments = command
        if arguments.isEmpty, let url = app.webURL {
            guard let opener = ["xdg-open", "open"].lazy.compactMap { Executable.find($0) }.first else { return print(url) }
            arguments = [opener, url]
        }
        guard let executable = arguments.first else { return }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable.contains("/") ? executable : (Executable.find(executable) ?? executable))
        process.arguments = Array(arguments.dropFirst())
        do { try process.run() } catch { throw CLIError.failure("could not run \(executable): \(error.localizedDescription)") }
        process.waitUntilExit()
        if process.terminationStatus != 0 { throw ExitCode(process.terminationStatus) }
    }
}

/// Word-wrapping for content cards.
enum Wrap {
    static func lines(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            if !current.isEmpty && current.count + 1 + word.count > width {
                lines.append(current)
                current = ""
            }
            current += (current.isEmpty ? "" : " ") + word
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }
}

/// `grove pause stats`: usage per app and day against the 60% target.
struct PauseStats: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stats", abstract: "Pause usage per app and day (last 30 days).")
    @OptionGroup var options: GlobalOptions
    @Option(name: .long, help: "Only this app.") var app: String?

    func run() throws {
        let db = try options.open()
        let stats = try db.usageStatistics(appId: app)
        if options.json { return try Output.json(stats) }
        guard !stats.isEmpty else { return print("No pauses in the last 30 days.") }
        let style = Style(.current())
        print(style.bold("Day         App            Pauses  Done  Left  Avg    Rate   Streak"))
        for s in stats {
            let rate = "\(Int((s.completionRate * 100).rounded()))%"
            let mark = s.meetsTarget ? style.green("✓") : style.yellow("·")
            print("\(s.date)  \(s.appId.padding(toLength: 14, withPad: " ", startingAt: 0)) \(String(s.totalSessions).leftPad(6))  \(String(s.completedSessions).leftPad(4))  \(String(s.exitedSessions).leftPad(4))  \(String(format: "%4.0fs", s.avgTimeSpent))  \(rate.leftPad(4)) \(mark) \(String(s.streakCount).leftPad(5))")
        }
        print(style.dim("✓ = at least 60% of pauses completed (the target)"))
    }
}

extension String {
    func leftPad(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}

/// `grove apps …`: which apps and sites Grove gates.
struct AppsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apps", abstract: "The apps and sites Grove pauses in front of.",
        discussion: """
              grove apps
              grove apps add hn --name "Hacker News" --scheme hn:// --url https://news.ycombinator.com/
              grove apps enable hn
              grove apps duration 30s
            """,
        subcommands: [AppsList.self, AppsAdd.self, AppsEnable.self, AppsDisable.self, AppsRemove.self, AppsDuration.self],
        defaultSubcommand: AppsList.self)
}

struct AppsList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List apps.")
    @OptionGroup var options: GlobalOptions
    func run() throws {
        let db = try options.open()
        let apps = try db.apps()
        if options.json { return try Output.json(apps) }
        let p = try db.pausePreferences()
        for a in apps { print("\(a.isEnabled ? "●" : "○") \(a.id.padding(toLength: 12, withPad: " ", startingAt: 0)) \(a.displayName.padding(toLength: 14, withPad: " ", startingAt: 0)) \(a.webURL ?? a.urlScheme)") }
        print("\(p.enabledApps.count)/\(PausePreferences.maxEnabledApps) enabled · pause \(p.timerDuration) s")
    }
}

struct AppsAdd: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add an app or site.")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "Id: lowercase letters, digits, hyphens.") var id: String
    @Option(name: .long, help: "Display name.") var name: String
    @Option(name: .long, help: "URL scheme, e.g. hn://.") var scheme: String
    @Option(name: .long, help: "Web URL to open when proceeding.") var url: String?
    @Flag(name: .long, help: "Gate it right away.") var enable = false

    func run() throws {
        let db = try options.open()
        let order = (try db.apps().map(\.order).max() ?? -1) + 1
        let app = SocialApp(id: id, displayName: name, urlScheme: scheme, isEnabled: enable, order: order, webURL: url)
        try db.addApp(app)
        if options.json { return try Output.json(app) }
        print("Added \(app.displayName) (\(app.id))\(enable ? ", enabled" : "").")
    }
}

struct AppsEnable: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "enable", abstract: "Gate an app (at most 10).")
    @OptionGroup var options: GlobalOptions
    @Argument var id: String
    func run() throws {
        let db = try options.open()
        try db.setAppEnabled(id: id, true)
        if options.json { return try Output.json(try db.app(id: id)) }
        print("\(id) is gated.")
    }
}

struct AppsDisable: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "disable", abstract: "Stop gating an app.")
    @OptionGroup var options: GlobalOptions
    @Argument var id: String
    func run() throws {
        let db = try options.open()
        try db.setAppEnabled(id: id, false)
        if options.json { return try Output.json(try db.app(id: id)) }
        print("\(id) is no longer gated.")
    }
}

struct AppsRemove: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Delete an app and its pause history.")
    @OptionGroup var options: GlobalOptions
    @Argument var id: String
    func run() throws {
        let db = try options.open()
        try db.deleteApp(id: id)
        if options.json { return try Output.json(["deleted": id]) }
        print("Deleted \(id).")
    }
}

struct AppsDuration: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "duration", abstract: "Set the pause length (15–45 s).")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "e.g. 30s") var duration: String
    func run() throws {
        let db = try options.open()
        var p = try db.pausePreferences()
        p.timerDuration = Int(try TimeParsing.duration(duration, field: "timerDuration").rounded())
        try db.updatePausePreferences(p)
        if options.json { return try Output.json(p) }
        print("Pauses last \(p.timerDuration) s.")
    }
}

/// `grove content …`: the quotes, excerpts and prompts a pause shows.
struct ContentCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "content", abstract: "The quotes, excerpts and prompts pauses show.",
        discussion: """
              grove content list --category stoicism
              grove content add --type prompt --category mindfulness --text "What are you hoping to find in there right now?"
              grove content import pack.json     # a JSON array of content items
              grove content categories stoicism nature
            """,
        subcommands: [ContentList.self, ContentAdd.self, ContentImport.self, ContentCategories.self],
        defaultSubcommand: ContentList.self)
}

struct ContentList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List content.")
    @OptionGroup var options: GlobalOptions
    @Option(name: .long, help: "Only this category.") var category: String?
    func run() throws {
        let c = try category.map { value -> MindfulnessContent.ContentCategory in
            guard let c = MindfulnessContent.ContentCategory(rawValue: value) else {
                throw InvalidField("category", "category must be one of \(MindfulnessContent.ContentCategory.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return c
        }
        let db = try options.open()
        let items = try db.contents(category: c)
        if options.json { return try Output.json(items) }
        for i in items {
            print("\(i.id.padding(toLength: 22, withPad: " ", startingAt: 0)) \(i.type.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)) \(i.category.rawValue.padding(toLength: 13, withPad: " ", startingAt: 0)) p\(i.priority) ×\(i.timesShown)  \(i.text.prefix(50))…")
        }
        print("\(items.count) items")
    }
}

struct ContentAdd: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add your own content.")
    @OptionGroup var options: GlobalOptions
    @Option(name: .long, help: "quote, excerpt or prompt.") var type: String
    @Option(name: .long, help: "Category.") var category: String
    @Option(name: .long, help: "The text (50–750 characters).") var text: String
    @Option(name: .long, help: "Attribution.") var author: String?
    @Option(name: .long, help: "Priority 1–10 (higher shows more often).") var priority: Int = MindfulnessContent.defaultPriority
    @Option(name: .long, help: "Id (default: generated).") var id: String?

    func run() throws {
        guard let t = MindfulnessContent.ContentType(rawValue: type) else { throw InvalidField("type", "type must be quote, excerpt or prompt (got \"\(type)\")") }
        guard let c = MindfulnessContent.ContentCategory(rawValue: category) else {
            throw InvalidField("category", "category must be one of \(MindfulnessContent.ContentCategory.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let db = try options.open()
        let item = MindfulnessContent(id: id ?? "user-\(db.environment.uuid().uuidString.prefix(8).lowercased())", type: t, text: text,
                                      category: c, author: author, priority: priority)
        try db.saveContents([item])
        if options.json { return try Output.json(try db.content(id: item.id)) }
        print("Added \(item.id).")
    }
}

struct ContentImport: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "import", abstract: "Import a content pack (a JSON array of items).")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "The JSON file.") var file: String

    func run() throws {
        let data: Data
        data = try InputFile.read(file)
        let items: [MindfulnessContent]
        do { items = try GroveExport.makeDecoder().decode([MindfulnessContent].self, from: data) } catch {
            throw CLIError.usage("\(file) is not a content pack (a JSON array of {id, type, text, category, …}): \(error.localizedDescription)")
        }
        let db = try options.open()
        try db.saveContents(items.map { var i = $0; i.isBundled = false; return i })
        if options.json { return try Output.json(["imported": items.count]) }
        print("Imported \(items.count) item\(items.count == 1 ? "" : "s").")
    }
}

struct ContentCategories: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "categories", abstract: "Show or choose the categories pauses draw from.")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "Categories to use (all when none are given and --all is set).") var categories: [String] = []
    @Flag(name: .long, help: "Use every category.") var all = false

    func run() throws {
        let db = try options.open()
        var p = try db.pausePreferences()
        if all { p.selectedCategories = Set(MindfulnessContent.ContentCategory.allCases) }
        if !categories.isEmpty {
            p.selectedCategories = Set(try categories.map { value in
                guard let c = MindfulnessContent.ContentCategory(rawValue: value) else {
                    throw InvalidField("selectedCategories", "unknown category \"\(value)\"; choose from \(MindfulnessContent.ContentCategory.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                return c
            })
        }
        if all || !categories.isEmpty { try db.updatePausePreferences(p) }
        if options.json { return try Output.json(p.selectedCategories.sorted()) }
        print(MindfulnessContent.ContentCategory.allCases.map { (p.selectedCategories.contains($0) ? "● " : "○ ") + $0.rawValue }.joined(separator: "\n"))
    }
}
