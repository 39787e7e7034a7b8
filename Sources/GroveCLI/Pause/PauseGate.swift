import ArgumentParser
import Foundation
import GroveCore
import GroveSystem
import GroveStore

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
        let io = CLIEnvironment.current.io
        let terminal = io.openTerminal()
        defer { terminal?.restore() }
        let end = io.uptime() + TimeInterval(session.durationSetting)
        while true {
            let left = max(0, end - io.uptime())
            if !options.json {
                Output.write(Data("\r\u{1B}[2K  \(style.cyan("Breathe")) \(DurationParser.clock(left))  \(style.dim(terminal == nil ? "" : "[e] exit  [t] plant a tree"))".utf8))
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
                io.sleep(wait)
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
