import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// `grove timer run NAME`: the timer's countdown live in the terminal. The run itself lives in the
/// store, so the window can close, crash or leave (`q`) and the countdown goes on; each tick reads
/// it again (and so sees a pause made from the web or another terminal).
struct TimerLive: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run", abstract: "Count a timer down live; number keys tick its checklist.",
        discussion: """
            Starts the timer unless it is already counting down (then follows it). Keys: 1–9 toggle a \
            to-do, space pause/resume, s stop, q leave (the timer goes on: `grove now` shows it).
            """)
    @OptionGroup var options: GlobalOptions
    @Argument(help: "Timer name or id.", completion: Completions.timers) var timer: String

    func run() throws {
        let db = try options.open()
        var t = try TimerLookup.find(timer, in: db)
        let traits = TerminalTraits.current()
        let style = Style(traits)
        let io = CLIEnvironment.current.io
        guard let terminal = io.openTerminal() else {
            throw CLIError.usage("timer run needs a terminal (grove timer start runs one in the background)")
        }
        defer { terminal.restore() }
        // A countdown already under way is followed, not restarted.
        if try db.timers.run(timerId: t.id).map({ $0.state == .finished }) ?? true { try db.timers.start(timerId: t.id).armWaiter(db) }
        var drawn = 0
        while true {
            guard let run = try db.timers.run(timerId: t.id) else { return print("\(t.name) stopped.") }
            let left = run.remaining
            let paused = run.state == .paused
            var lines = [
                "\(style.colors("●", foreground: t.colorHex, background: nil)) \(style.bold(t.name))  \(style.bold(DurationParser.clock(left)))\(paused ? style.yellow("  paused") : "")",
                style.green(FocusScreen.bar(1 - left / max(1, run.duration), width: min(40, traits.width - 4))),
            ]
            lines += TimerText.checklist(t)
            lines.append(style.dim("[1-9] toggle  [space] pause  [s] stop  [q] leave"))
            var out = drawn > 0 ? "\u{1B}[\(drawn)F" : ""
            for line in lines { out += "\u{1B}[2K" + TerminalText.neutralized(line) + "\n" }
            Output.write(Data(utf8: out))
            drawn = lines.count
            if run.state == .finished {
                // Announced once, whoever notices first (`grove serve` may have already).
                if try db.timers.claimNotice(timerId: t.id) {
                    TerminalBell.ring()
                    _ = io.notify("\(t.name) is done", "\(t.todoItems.filter(\.isCompleted).count)/\(t.todoItems.count) to-dos done")
                }
                return print("\(t.name) is done.")
            }
            switch terminal.readKey(timeout: paused ? 1 : max(0.05, left - left.rounded(.down))) {
            case "q", "\u{03}", "\u{1B}":
                let now = try db.timers.run(timerId: t.id)?.remaining ?? left
                return print("\(t.name) goes on: \(DurationParser.clock(now)) left (grove timer stop \(t.name) ends it).")
            case "s":
                try db.timers.stop(timerId: t.id)
                return print("\(t.name) stopped.")
            case " ":
                if paused { try db.timers.resume(timerId: t.id).armWaiter(db) } else { try db.timers.pause(timerId: t.id) }
            case let key? where key.isNumber:
                if let n = key.wholeNumberValue, n >= 1, n <= t.todoItems.count {
                    try db.timers.toggleTodo(timerID: t.id, todoID: t.todoItems[n - 1].id)
                    t = try db.timers.find(id: t.id) ?? t
                }
            default: break
            }
        }
    }
}
