import Foundation
import GroveCore

/// What the interactive focus session draws: a pure function of the session, `now` and the terminal.
public enum FocusScreen {
    /// The session's glyph at `now`: its stage while it grows, its own tree (or fallen leaves) once ended.
    public static func glyph(_ session: FocusSession, at now: Date) -> String {
        session.state.isTerminal ? TreeLook(session).glyph : session.treeStage(at: now).glyph
    }

    /// A progress bar `width` cells wide.
    public static func bar(_ progress: Double, width: Int) -> String {
        let cells = max(4, width)
        let progress = progress.isFinite ? min(max(progress, 0), 1) : 0
        let filled = min(cells, Int((progress * Double(cells)).rounded(.down)))
        return String(repeating: "█", count: filled) + String(repeating: "░", count: cells - filled)
    }

    /// The lines for `session` at `now`.
    public static func lines(_ session: FocusSession, now: Date, traits: TerminalTraits) -> [String] {
        let style = Style(traits)
        let stage = session.treeStage(at: now)
        let progress = session.progress(at: now)
        let barWidth = min(40, max(8, traits.width - 12))
        let percent = "\(Int((progress * 100).rounded(.down)))%"
        let state: String
        switch session.state {
        case .active: state = style.green("Growing")
        case .paused: state = style.yellow("Paused")
        case .completed: state = style.green("Tree planted")
        case .abandoned: state = style.red("Abandoned")
        }
        // An open-ended session counts up; its bar is the tree's growth, full after a Pomodoro's worth.
        let figure =
            session.remaining(at: now).map { "\(style.bold(DurationParser.clock($0))) left" }
            ?? "\(style.bold(DurationParser.clock(session.focusTime(at: now)))) so far"
        var lines = [
            "\(glyph(session, at: now))  \(style.bold(session.state == .abandoned ? "Withered" : stage.displayName))",
            "\(style.green(bar(progress, width: barWidth))) \(percent)",
            "\(figure) · \(state)",
        ]
        if session.state.isOpen {
            let keys = (session.state == .paused ? "[p] resume" : "[p] pause") + (session.openEnded ? "  [s] stop" : "")
            let full = "\(keys)  [a] abandon  [d] detach"
            lines.append(style.dim(traits.width >= full.count + 10 ? full : "\(keys) [a] [d]"))
        }
        return lines
    }
}
