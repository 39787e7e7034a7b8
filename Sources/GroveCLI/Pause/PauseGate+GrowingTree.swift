import Foundation
import GroveCore
import GroveStore
import GroveSystem

extension PauseGate {
    /// What `--json` prints when a growing tree kept the app closed.
    struct GrowingTree: Encodable {
        var growingTree = true
        /// Seconds left in the focus session; nil for an open-ended one (it counts up).
        var remaining: TimeInterval?
        /// Where the session stands ("25:00 left", "12:34 so far").
        var time: String
    }

    /// A focus session is growing: as in Forest, leaving costs the tree. At a terminal the person
    /// chooses (back to focus, or let it wither and go on to the pause); a script or a launcher
    /// without a terminal is told and stops, unless `--let-it-wither`. Nothing is counted on the way
    /// back. Whether to go on to the pause, and whether that pause lets the tree wither (the store
    /// does both in one step, `PauseRoom.open(letTreeWither:)`, and counts it).
    func passGrowingTree(_ db: AppDatabase, _ app: SocialApp) throws -> (go: Bool, wither: Bool) {
        guard let session = try db.focus.current(), session.state == .active else { return (true, false) }
        // On this session's allowlist: the gate as ever, and the tree keeps growing.
        if app.isAllowed(duringSessionTagged: session.tags) { return (true, false) }
        let now = try db.focus.now(for: session)
        let time = session.timeText(at: now)
        var wither = letItWither
        if !wither, !options.json, let terminal = CLIEnvironment.current.io.openTerminal() {
            defer { terminal.restore() }
            print("Your tree is growing (\(time)). Opening \(app.displayName) now lets it wither.")
            for line in try db.pause.intent().lines { print(line) }
            print("[b] back to focus  [w] let it wither and open \(app.displayName)")
            var key: Character?
            for _ in 0..<480 where key == nil { key = terminal.readKey(timeout: 0.25) }
            wither = key == "w"
        }
        if wither { return (true, true) }
        if options.json {
            try Output.json(GrowingTree(remaining: session.remaining(at: now), time: time))
        } else {
            print("Back to focus: your tree keeps growing (\(time)). \(app.displayName) was not opened.")
        }
        return (false, false)
    }
}
