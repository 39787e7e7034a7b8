import ArgumentParser
import Foundation
import GroveCore
import GroveStore
import GroveSystem

/// The pause itself (the default of `grove pause`).
struct PauseGate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gate", abstract: "Take a mindful pause before opening an app or site (the default).",
        discussion: """
            Shows how many times today you tried to open the app through Grove, then a quote, excerpt or \
            prompt with a countdown (15–45 s, `grove apps duration`). Then proceed (runs the command, \
            or opens the app's web URL), exit to focus, or plant a tree instead. Keys during the countdown: \
            e exit to focus, t plant a tree instead.
            During a focus session the tree comes first: at a terminal you choose to go back to focus or \
            let it wither; elsewhere the app stays closed unless --let-it-wither.
              grove pause instagram -- xdg-open https://www.instagram.com/
              alias yt='grove pause youtube -- firefox https://youtube.com'
            During the app's scheduled block (`grove apps block`) it stays closed; --emergency uses the \
            week's one pass to let this visit through.
            """)

    @OptionGroup var options: GlobalOptions
    @Argument(help: "The app's id (see `grove apps`).", completion: Completions.apps) var app: String
    @Option(name: .long, help: "Decide without asking: proceed, exit or tree (for scripts).") var choice: String?
    @Flag(name: .long, help: "During a focus session, abandon it and go on to the pause without asking.") var letItWither = false
    @Flag(name: .long, help: "During the app's scheduled block, use the week's one emergency pass.") var emergency = false
    @Argument(parsing: .postTerminator, help: "The command to run if you proceed.") var command: [String] = []

    enum Choice: String, CaseIterable { case proceed, exit, tree }

    func run() throws {
        let decided = try choice.map { try Choice.choosing($0, field: "choice") }
        let db = try options.open()
        guard let app = try db.pause.app(id: self.app) else { throw PauseValidationError.unknownApp(self.app) }
        // A gate that is off lets the app through: no pause, no attempt counted.
        guard app.isEnabled else {
            if !options.json { print("\(app.displayName) is not gated (switch it on with `grove apps enable \(app.id)`).") }
            return try proceed(app)
        }
        let tree = try passGrowingTree(db, app)
        guard tree.go else { return }
        let (session, content, attempts) = try db.pause.open(
            appId: app.id, platform: "linux-cli", emergency: emergency, letTreeWither: tree.wither)
        if session.witheredTree == true {
            NotificationHold.of(db)?.release()
            if !options.json { print("The tree withered. \(app.displayName) after a pause, then.") }
        }
        if session.emergencyPass == true, !options.json {
            print(
                Style(.current()).bold(
                    "This week's emergency pass lets \(app.displayName) through its block; the next comes with next week."))
        }
        // Killed mid-pause (Ctrl-C, a closed terminal, `kill`): the pause ends as force_quit, not
        // as a timeout guessed later.
        let signals = SignalExit { _ in _ = try? db.pause.finishSession(id: session.id, status: .forceQuit, outcome: nil) }
        defer { signals.cancel() }
        let traits = TerminalTraits.current()
        let style = Style(traits)
        let intent = try db.pause.intent(), answers = intent.answers
        if !options.json {
            for line in intent.lines { print(style.bold(line)) }
            print(
                style.dim(
                    attempts == 0
                        ? "First time opening \(app.displayName) through Grove today."
                        : "Tried to open \(app.displayName) through Grove \(attempts) time\(attempts == 1 ? "" : "s") already today."))
            print("")
            for line in Wrap.lines(content.text, width: min(72, traits.width - 4)) { print("  " + style.bold(line)) }
            if let author = content.author { print("  " + style.dim("— \(author)")) }
            print("")
        }
        // Every other pause asks why (one of its interventions); a number key answers, and gets a word back.
        let asksWhy = !options.json && PauseReason.asks(attemptsToday: attempts)
        if asksWhy {
            print("  " + style.bold(PauseReason.question(app.displayName)))
            print("  " + answers.enumerated().map { "[\($0.offset + 1)] \($0.element.label)" }.joined(separator: "  "))
            print("")
        }
        // Quick decisions skip the countdown only to leave early; proceeding needs the full pause.
        if decided == .exit || decided == .tree {
            return try finish(
                db, session, app: app, status: .exited, outcome: decided == .tree ? .deepenPause : .exitToHome, signals: signals)
        }
        let io = CLIEnvironment.current.io
        let terminal = io.openTerminal()
        defer { terminal?.restore() }
        let end = io.uptime() + TimeInterval(session.durationSetting)
        while true {
            signals.check()
            let left = max(0, end - io.uptime())
            if !options.json {
                let line =
                    "\(TerminalText.own("[2K"))  \(style.cyan("Breathe")) \(DurationParser.clock(left))  \(style.dim(terminal == nil ? "" : "[e] exit to focus  [t] plant a tree"))"
                Output.write(Data(utf8: "\r" + TerminalText.neutralized(line)))
            }
            if left <= 0 { break }
            let wait = max(0.05, left - left.rounded(.down))
            if let terminal {
                switch terminal.readKey(timeout: wait) {
                case "e", "q", "\u{03}", "\u{1B}":
                    print("")
                    return try finish(db, session, app: app, status: .exited, outcome: .exitToHome, signals: signals)
                case "t":
                    print("")
                    return try finish(db, session, app: app, status: .exited, outcome: .deepenPause, signals: signals)
                case let key? where asksWhy:
                    if let number = Int(String(key)), answers.indices.contains(number - 1) {
                        let reply = TerminalText.own("[2K") + "  " + style.bold(answers[number - 1].reply)
                        Output.write(Data(utf8: "\r" + TerminalText.neutralized(reply) + "\n"))
                    }
                default: break
                }
            } else {
                io.sleep(wait)
            }
        }
        if !options.json { print("") }
        var picked = decided
        if picked == nil, let terminal {
            print("[p] proceed to \(app.displayName)  [e] exit to focus  [t] plant a tree instead")
            var key: Character?
            // Short waits, so that a signal is noticed within a quarter of a second.
            for _ in 0..<480 where key == nil {
                signals.check()
                key = terminal.readKey(timeout: 0.25)
            }
            signals.check()
            switch key {
            case "p": picked = .proceed
            case "t": picked = .tree
            case nil:
                // Nobody chose: the person walked away. That is a timeout (as the web and recovery
                // store it), not an exit to focus they never asked for.
                print("")
                let finish = try db.pause.finish(id: session.id, status: .timeout, outcome: nil)
                signals.cancel()
                if options.json { return try Output.json(finish.pause) }
                return print("No choice made: the pause timed out, and \(app.displayName) stays closed.")
            default: picked = .exit
            }
        }
        switch picked ?? .exit {
        case .proceed: try finish(db, session, app: app, status: .completed, outcome: .proceedToApp, signals: signals)
        case .exit: try finish(db, session, app: app, status: .completed, outcome: .exitToHome, signals: signals)
        case .tree: try finish(db, session, app: app, status: .completed, outcome: .deepenPause, signals: signals)
        }
    }

    private func finish(
        _ db: AppDatabase, _ session: GatewaySession, app: SocialApp, status: GatewaySession.CompletionType,
        outcome: GatewaySession.ActionType, signals: SignalExit
    ) throws {
        let finish = try db.pause.finish(id: session.id, status: status, outcome: outcome)
        signals.cancel()
        if options.json { try Output.json(finish.pause) }
        switch outcome {
        case .proceedToApp:
            if !options.json { print("Going on to \(app.displayName), mindfully.") }
            try proceed(app)
        case .exitToHome:
            if !options.json { print("Good call. \(app.displayName) will still be there later.") }
        case .deepenPause:
            guard !options.json, let focus = finish.focus else { return }
            if finish.focusStarted {
                print("A seed is planted instead: \(DurationParser.clock(focus.plannedDuration)) of focus. Follow it with `grove focus`.")
            } else {
                print("Your focus session goes on instead. Follow it with `grove focus`.")
            }
        }
    }

    private func proceed(_ app: SocialApp) throws {
        var arguments = command
        if arguments.isEmpty, let url = app.webURL {
            guard let opener = ["xdg-open", "open"].lazy.compactMap { Executable.find($0) }.first else { return print(url) }
            arguments = [opener, url]
        }
        guard let executable = arguments.first else { return }
        let path = executable.contains("/") ? executable : (Executable.find(executable) ?? executable)
        // The program a person asked for, at their terminal (its process group, its streams), with a
        // clean signal mask: SIGTERM, SIGINT and Ctrl-C reach it as if it had been started by the shell.
        let pid: pid_t
        do {
            pid = try ChildProcess.spawn(path, Array(arguments.dropFirst()), inheritStandardStreams: true, ownGroup: false)
        } catch { throw CLIError.failure("could not run \(executable): \(error)") }
        let status = ChildProcess.wait(pid)
        if status != 0 { throw ExitCode(status) }
    }
}
