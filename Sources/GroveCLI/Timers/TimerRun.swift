import ArgumentParser
import Foundation
import GroveCore
import GroveStore

struct TimerRun: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run", abstract: "Count a timer down live; number keys tick its checklist.",
        discussion: "Keys: 1–9 toggle a to-do, space pause/resume, q quit.")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "Timer name or id.") var timer: String

    func run() throws {
        let db = try options.open()
        var t = try TimerLookup.find(timer, in: db)
        let traits = TerminalTraits.current()
        let style = Style(traits)
        let io = CLIEnvironment.current.io
        guard let terminal = io.openTerminal() else { throw CLIError.usage("timer run needs a terminal") }
        defer { terminal.restore() }
        // A monotonic clock: the countdown never drifts, whatever the wall clock does.
        var elapsed: TimeInterval = 0
        var runningSince: TimeInterval? = io.uptime()
        var drawn = 0
        while true {
            let spent = elapsed + (runningSince.map { io.uptime() - $0 } ?? 0)
            let left = max(0, Double(t.durationInSeconds) - spent)
            var lines = ["\(style.colors("●", foreground: t.colorHex, background: nil)) \(style.bold(t.name))  \(style.bold(DurationParser.clock(left)))\(runningSince == nil ? style.yellow("  paused") : "")",
                         style.green(FocusScreen.bar(1 - left / Double(t.durationInSeconds), width: min(40, traits.width - 4)))]
            lines += TimerText.checklist(t)
            lines.append(style.dim("[1-9] toggle  [space] pause  [q] quit"))
            var out = drawn > 0 ? "\u{1B}[\(drawn)F" : ""
            for line in lines { out += "\u{1B}[2K" + line + "\n" }
            Output.write(Data(out.utf8))
            drawn = lines.count
            if left <= 0 {
                TerminalBell.ring()
                _ = io.notify("\(t.name) is done", "\(t.todoItems.filter(\.isCompleted).count)/\(t.todoItems.count) to-dos done")
                return print("\(t.name) is done.")
            }
            switch terminal.readKey(timeout: runningSince == nil ? 1 : max(0.05, left - left.rounded(.down))) {
            case "q", "\u{03}", "\u{1B}": return print("Stopped.")
            case " ":
                if let since = runningSince { elapsed += io.uptime() - since; runningSince = nil } else { runningSince = io.uptime() }
            case let key? where key.isNumber:
                if let n = key.wholeNumberValue, n >= 1, n <= t.todoItems.count {
                    try db.toggleTodo(timerID: t.id, todoID: t.todoItems[n - 1].id)
                    t = try db.timer(id: t.id) ?? t
                }
            default: break
            }
        }
    }
}
