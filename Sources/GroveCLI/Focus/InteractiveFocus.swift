import Foundation
import GroveCore
import GroveStore

/// The live focus session in a terminal. Its state lives in the store, so the window can close,
/// crash or detach at any moment and the session goes on; each tick re-reads it (and so also sees a
/// pause made from another terminal).
struct InteractiveFocus {
    let db: AppDatabase
    let traits: TerminalTraits
    let io: LiveIO

    func run(length: TimeInterval?, tags: [String] = []) throws {
        var session = try db.focus.current() ?? db.focus.start(plannedDuration: length, tags: tags)
        // Whatever becomes of this window (closed, killed, detached), the session still rings on time.
        session.armWaiter(db)
        guard let terminal = io.openTerminal() else {
            // Not a terminal: start (or report) and return, like `grove focus start`.
            return print(
                "Session running: \(DurationParser.clock(session.remaining(at: try db.focus.now(for: session)))) left. `grove focus status` follows it."
            )
        }
        defer { terminal.restore() }
        let style = Style(traits)
        var drawn = 0
        func draw(_ lines: [String]) {
            var out = drawn > 0 ? "\u{1B}[\(drawn)F" : ""  // back to the first line drawn last time
            for line in lines { out += "\u{1B}[2K" + TerminalText.neutralized(line) + "\n" }
            Output.write(Data(out.utf8))
            drawn = lines.count
        }
        print(style.dim("Focus session. Stay with it."))
        while true {
            let refreshed = try db.focus.current() ?? db.focus.session(id: session.id)
            guard let current = refreshed, current.id == session.id else {
                draw(["Another session replaced this one."])
                return
            }
            session = current
            let now = try db.focus.now(for: session)
            draw(FocusScreen.lines(session, now: now, traits: traits))
            if session.state == .completed { return try completed(terminal: terminal, style: style, sessionID: session.id) }
            if session.state == .abandoned { return print("No tree this time. Try again when you are ready.") }
            // Wake exactly when the displayed second changes: no drift, however long the session.
            let remaining = session.remaining(at: now)
            let timeout = session.state == .active ? max(0.05, remaining - remaining.rounded(.down)) : 1
            switch terminal.readKey(timeout: timeout == 0 ? 1 : timeout) {
            case "p", " ":
                session = session.state == .paused ? try db.focus.resume() : try db.focus.pause()
                session.armWaiter(db)
            case "a":
                draw(FocusScreen.lines(session, now: now, traits: traits) + [style.yellow("Abandon this session? [y/N]")])
                if terminal.readKey(timeout: 30) == "y" { session = try db.focus.abandon() } else { draw([]) }
            case "d", "q", "\u{03}", "\u{1B}":
                print("Detached. The session goes on; `grove focus status` follows it.")
                return
            default:
                break
            }
        }
    }

    private func completed(terminal: any KeyReader, style: Style, sessionID: UUID) throws {
        TerminalBell.ring()
        let stats = try db.focus.stats()
        // The desktop notice goes out once: here, or by the waiter, the server or a page if one was first.
        if try db.focus.claimNotice(sessionId: sessionID), !io.notify(CompletionNotice.title, CompletionNotice.body) {
            print(style.dim("(No desktop notification: notify-send is not installed.)"))
        }
        print("Tree planted! \(stats.todaysTrees) today, streak \(stats.currentStreak) day\(stats.currentStreak == 1 ? "" : "s").")
        let pause = try db.focus.nextBreak()
        print("Time for a \(pause.kind == .long ? "long" : "short") break: \(DurationParser.clock(pause.duration)). [b] start it  [q] quit")
        guard terminal.readKey(timeout: 600) == "b" else { return }
        // A break is not stored: a monotonic clock times it.
        let end = io.uptime() + pause.duration
        while true {
            let left = end - io.uptime()
            Output.write(Data("\r\u{1B}[2KBreak: \(DurationParser.clock(max(0, left))) left  \(style.dim("[q] end"))".utf8))
            if left <= 0 { break }
            if let key = terminal.readKey(timeout: max(0.05, left - left.rounded(.down))), key == "q" || key == "\u{03}" { break }
        }
        print("")
        TerminalBell.ring()
        _ = io.notify("Break over", "Ready for the next tree?")
        print("Break over. Start the next tree with `grove focus`.")
    }
}
