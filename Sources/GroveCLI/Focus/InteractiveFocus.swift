import Foundation
import GroveCore
import GroveStore

/// The live focus session in a terminal. Its state lives in the store, so the window can close,
/// crash or detach at any moment and the session goes on; each tick re-reads it (and so also sees a
/// pause made from another terminal, or a break skipped on the web).
struct InteractiveFocus {
    let db: AppDatabase
    let traits: TerminalTraits
    let io: LiveIO

    /// How a session's screen ends: the person wants the next session, or is done here.
    enum Ending { case nextSession, quit }

    /// Runs sessions until the person stops asking for the next one: each planted tree is followed by
    /// its break, and then "start the next session".
    func run(length: TimeInterval?, openEnded: Bool = false, tags: [String] = []) throws {
        var first = true
        while try runOne(length: length, openEnded: openEnded, tags: tags, resume: first) == .nextSession { first = false }
    }

    /// `resume`: a session already running is followed instead of refused.
    private func runOne(length: TimeInterval?, openEnded: Bool, tags: [String], resume: Bool) throws -> Ending {
        let running = resume ? try db.focus.current() : nil
        var session = try running ?? db.focus.start(plannedDuration: openEnded ? nil : length, openEnded: openEnded, tags: tags)
        // Whatever becomes of this window (closed, killed, detached), the session still rings on time.
        session.armWaiter(db)
        guard let terminal = io.openTerminal() else {
            // Not a terminal: start (or report) and return, like `grove focus start`.
            let now = try db.focus.now(for: session)
            print("Session running: \(session.timeText(at: now)). `grove focus status` follows it.")
            return .quit
        }
        defer { terminal.restore() }
        let style = Style(traits)
        var screen = LiveScreen()
        print(style.dim("Focus session. Stay with it."))
        while true {
            let refreshed = try db.focus.current() ?? db.focus.session(id: session.id)
            guard let current = refreshed, current.id == session.id else {
                screen.draw(["Another session replaced this one."])
                return .quit
            }
            session = current
            let now = try db.focus.now(for: session)
            screen.draw(FocusScreen.lines(session, now: now, traits: traits))
            if session.state == .completed { return try completed(terminal: terminal, style: style, sessionID: session.id) }
            if session.state == .abandoned {
                let short = session.openEnded && session.duration < FocusSession.shortestTree
                print(
                    short
                        ? CompletionNotice.stoppedShort(after: session.duration) + "."
                        : "No tree this time. Try again when you are ready.")
                return .quit
            }
            // Wake exactly when the displayed second changes: no drift, however long the session.
            let shown = session.remaining(at: now) ?? session.focusTime(at: now)
            let fraction = shown - shown.rounded(.down)
            let untilNext = session.openEnded ? 1 - fraction : fraction
            let timeout = session.state == .active ? max(0.05, untilNext) : 1
            switch terminal.readKey(timeout: timeout) {
            case "p", " ":
                session = session.state == .paused ? try db.focus.resume() : try db.focus.pause()
                session.armWaiter(db)
            case "s" where session.openEnded:
                session = try db.focus.stop()
            case "a":
                screen.draw(FocusScreen.lines(session, now: now, traits: traits) + [style.yellow("Abandon this session? [y/N]")])
                if terminal.readKey(timeout: 30) == "y" { session = try db.focus.abandon() } else { screen.draw([]) }
            case "d", "q", "\u{03}", "\u{1B}":
                print("Detached. The session goes on; `grove focus status` follows it.")
                return .quit
            default:
                break
            }
        }
    }

    private func completed(terminal: any KeyReader, style: Style, sessionID: UUID) throws -> Ending {
        TerminalBell.ring()
        let stats = try db.focus.stats()
        // The desktop notice goes out once: here, or by the waiter, the server or a page if one was first.
        if try db.focus.claimNotice(sessionId: sessionID), !io.notify(CompletionNotice.title, CompletionNotice.body) {
            print(style.dim("(No desktop notification: notify-send is not installed.)"))
        }
        print("Tree planted! \(stats.todaysTrees) today, streak \(stats.currentStreak) day\(stats.currentStreak == 1 ? "" : "s").")
        // The break is stored: it runs whether or not this window stays, and every face shows it.
        // Each tick re-reads it, so a skip from the web or another terminal ends it here too.
        if let pause = try db.focus.currentBreak() {
            print("Time for a \(pause.kind == .long ? "long" : "short") break: \(DurationParser.clock(pause.duration)).")
            var skipped = false
            while let running = try db.focus.status().break {
                let left = running.remaining
                let line =
                    "\(TerminalText.own("[2K"))Break: \(DurationParser.clock(left)) left  \(style.dim("[s] skip  [n] next session  [q] quit"))"
                Output.write(Data(utf8: "\r" + TerminalText.neutralized(line)))
                switch terminal.readKey(timeout: max(0.05, left - left.rounded(.down))) {
                case "s":
                    try db.focus.skipBreak()
                    skipped = true
                case "n":
                    try db.focus.skipBreak()
                    print("")
                    return .nextSession
                case "q", "\u{03}", "\u{1B}":
                    print("\nThe break goes on without this window; `grove now` shows it.")
                    return .quit
                default: break
                }
            }
            print("")
            if try db.focus.current() != nil {
                print("A session started elsewhere; `grove focus` follows it.")
                return .quit
            }
            if !skipped {
                TerminalBell.ring()
                // Once, here or by the session's waiter or a page, whichever noticed first.
                if try db.focus.claimBreakOverNotice(sessionId: sessionID) { _ = io.notify(BreakNotice.title, BreakNotice.body) }
            }
            print(skipped ? "Break skipped." : "Break over.")
        }
        print("Start the next session? [n] yes  [q] quit")
        return terminal.readKey(timeout: 600) == "n" ? .nextSession : .quit
    }
}

/// The lines a live screen drew last, redrawn in place.
struct LiveScreen {
    private var drawn = 0

    mutating func draw(_ lines: [String]) {
        var out = drawn > 0 ? "\u{1B}[\(drawn)F" : ""  // back to the first line drawn last time
        for line in lines { out += "\u{1B}[2K" + TerminalText.neutralized(line) + "\n" }
        // Fewer lines than last time (a question answered): the rest are blanked, not left behind on
        // the prompt line, and the cursor goes back under the new ones.
        let extra = drawn - lines.count
        if extra > 0 { out += String(repeating: "\u{1B}[2K\n", count: extra) + "\u{1B}[\(extra)F" }
        Output.write(Data(utf8: out))
        drawn = lines.count
    }
}
