import ArgumentParser
import Foundation
import GroveCore
import GroveStore
import GroveSystem

/// `grove now`: one line for prompts and status bars.
struct NowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "now", abstract: "One line for shell prompts and status bars.",
        discussion: """
            Prints the running session and its remaining time (an open-ended one's time so far, ↑), \
            else the break after the last tree, else the current intention; prints nothing when there \
            is none of these.
              tmux:     set -g status-right '#(grove now)'
              waybar:   "custom/grove": { "exec": "grove now --format waybar", "return-type": "json", "interval": 5 }
              i3blocks: [grove] command=grove now --format i3blocks  interval=5
              polybar:  [module/grove] type = custom/script  exec = grove now --format polybar  interval = 5
            The bar formats carry a tooltip (waybar) and a state: focus, paused, break, done (a timer \
            rang), intention or idle (waybar's class; i3blocks' and polybar's colour).
            """)
    @OptionGroup var options: GlobalOptions
    @Option(name: .long, help: "text, json, or a status bar's format: waybar, i3blocks, polybar.") var format: NowFormat?

    struct Report: Encodable {
        var text: String
        var session: FocusSession?
        var remaining: TimeInterval?
        /// Focus time so far (what an open-ended session shows, counting up).
        var focusTime: TimeInterval?
        /// The break after the last tree, when no session runs.
        var `break`: FocusBreakReport?
        var intention: Intention?
        /// Named timers counting down, paused or done.
        var timers: [TimerRunStatus] = []
    }

    func run() throws {
        try Self.show(Invocation(json: options.json, database: options.database, format: format))
    }

    /// What a `grove now` command line asks for: the two global options it takes, as plain values.
    /// (Building `GlobalOptions` outside a parse sets up its ArgumentParser property wrappers, whose
    /// name sets cost the runtime a scan of every protocol conformance in the binary: a tenth of a
    /// millisecond on every prompt, for nothing.)
    struct Invocation: Equatable {
        var json = false
        var database: String?
        var format: NowFormat?
    }

    /// The command line of `grove now` without ArgumentParser, for the forms a prompt or status bar
    /// runs (`now`, `--json`, `--database PATH`, `--format F`), or nil for anything else (`--help`, a typo), which
    /// the full parse handles and explains. ArgumentParser reflects over the command's options twice
    /// per parse: a fifth of this command's whole run, paid on every prompt.
    static func fastOptions(_ arguments: [String]) -> Invocation? {
        guard arguments.first == "now" else { return nil }
        var format: NowFormat?
        // `--format F` or `--format=F`, once, naming a format (else the full parse says what is wrong).
        let options = PlainOptions.parse(arguments.dropFirst()) { argument, rest in
            guard format == nil else { return false }
            if argument == "--format" {
                format = rest.popFirst().flatMap(NowFormat.init(rawValue:))
            } else if argument.hasPrefix("--format=") {
                format = NowFormat(rawValue: String(argument.dropFirst("--format=".count)))
            }
            return format != nil
        }
        guard let options else { return nil }
        return Invocation(json: options.json, database: options.database, format: format)
    }

    /// Prints the line (or the JSON report) for the store `options` name.
    static func show(_ options: Invocation) throws {
        let db = try GlobalOptions.open(database: options.database)
        let status = try db.focus.status()
        let session = status.session
        // A status bar asks every few seconds: a hold whose waiter died (a kill, a reboot) ends here.
        if session?.state != .active, let hold = NotificationHold.of(db), hold.isHeld { hold.release() }
        var report = Report(text: "")
        if let session {
            report.session = session
            report.remaining = status.remaining
            report.focusTime = status.focusTime
            // An open-ended session counts up ("↑"), a planned one down.
            let figure = status.remaining.map(DurationParser.clock) ?? "↑\(DurationParser.clock(status.focusTime ?? 0))"
            report.text = "\((status.treeStage ?? .seed).glyph) \(figure)\(session.state == .paused ? " paused" : "")"
        } else if let pause = status.break {
            report.break = pause
            report.text = "☕ break \(DurationParser.clock(pause.remaining))"
        } else if let intention = try db.intentions.current() {
            report.intention = intention
            report.text = "◎ \(intention.text)"
        }
        // Timers ride along: "🌱 12:00 · ⏱ Tea 03:12".
        report.timers = try db.timers.runs()
        let timers = report.timers.map {
            "\(TimerText.glyph($0.state)) \($0.name) \($0.state == .finished ? "done" : DurationParser.clock($0.remaining))"
        }
        report.text = ([report.text].filter { !$0.isEmpty } + timers).joined(separator: " · ")
        if options.json || options.format == .json { return try Output.json(report) }
        // A bar's line is printed even when empty: the bar then shows nothing, instead of the last line.
        if let line = options.format?.render(report) { return print(line) }
        if !report.text.isEmpty { print(NowFormat.oneLine(report.text)) }
    }
}
