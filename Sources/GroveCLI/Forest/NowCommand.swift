import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// `grove now`: one line for prompts and status bars.
struct NowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "now", abstract: "One line for shell prompts and status bars.",
        discussion: """
            Prints the running session and its remaining time, else the current intention; prints \
            nothing when there is neither.
              tmux:    set -g status-right '#(grove now)'
              waybar:  "custom/grove": { "exec": "grove now", "interval": 5 }
            """)
    @OptionGroup var options: GlobalOptions

    struct Report: Encodable {
        var text: String
        var session: FocusSession?
        var remaining: TimeInterval?
        var intention: Intention?
        /// Named timers counting down, paused or done.
        var timers: [TimerRunStatus] = []
    }

    func run() throws {
        try Self.show(options)
    }

    /// The command line of `grove now` without ArgumentParser, for the forms a prompt or status bar
    /// runs (`now`, `--json`, `--database PATH`), or nil for anything else (`--help`, a typo), which
    /// the full parse handles and explains. ArgumentParser reflects over the command's options twice
    /// per parse: a fifth of this command's whole run, paid on every prompt.
    static func fastOptions(_ arguments: [String]) -> GlobalOptions? {
        guard arguments.first == "now" else { return nil }
        var json = false
        var database: String?
        var rest = arguments.dropFirst()[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--json" where !json: json = true
            case "--database" where database == nil:
                guard let path = rest.popFirst(), !path.isEmpty, !path.hasPrefix("-") else { return nil }
                database = path
            case _ where argument.hasPrefix("--database=") && database == nil:
                let path = String(argument.dropFirst("--database=".count))
                guard !path.isEmpty else { return nil }
                database = path
            default: return nil
            }
        }
        // Both set: an option ArgumentParser never parsed must not be read before it is assigned.
        var options = GlobalOptions()
        options.json = json
        options.database = database
        return options
    }

    /// Prints the line (or the JSON report) for the store `options` name.
    static func show(_ options: GlobalOptions) throws {
        let db = try options.open()
        let session = try db.currentFocusSession()
        var report = Report(text: "")
        if let session {
            let remaining = session.remaining(at: try db.now(for: session))
            let stage = session.treeStage(at: try db.now(for: session))
            report.session = session
            report.remaining = remaining
            report.text = "\(FocusScreen.glyph(stage)) \(DurationParser.clock(remaining))\(session.state == .paused ? " paused" : "")"
        } else if let intention = try db.currentIntention() {
            report.intention = intention
            report.text = "◎ \(intention.text)"
        }
        // Timers ride along: "🌱 12:00 · ⏱ Tea 03:12".
        report.timers = try db.timerRuns()
        let timers = report.timers.map { "\(TimerText.glyph($0.state)) \($0.name) \($0.state == .finished ? "done" : DurationParser.clock($0.remaining))" }
        report.text = ([report.text].filter { !$0.isEmpty } + timers).joined(separator: " · ")
        if options.json { return try Output.json(report) }
        if !report.text.isEmpty { print(report.text) }
    }
}
