import Foundation
import GroveCore

/// What the interactive focus session draws: a pure function of the session, `now` and the terminal.
public enum FocusScreen {
    public static func glyph(_ stage: TreeStage) -> String {
        switch stage {
        case .seed: "·"
        case .sprout: "🌱"
        case .sapling: "🌿"
        case .youngTree: "🌲"
        case .fullTree: "🌳"
        }
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
        let remaining = DurationParser.clock(session.remaining(at: now))
        var lines = [
            "\(glyph(stage))  \(style.bold(stage.displayName))",
            "\(style.green(bar(progress, width: barWidth))) \(percent)",
            "\(style.bold(remaining)) left · \(state)",
        ]
        if session.state.isOpen {
            let keys = session.state == .paused ? "[p] resume" : "[p] pause"
            lines.append(style.dim(traits.width >= 44 ? "\(keys)  [a] abandon  [d] detach" : "\(keys) [a] [d]"))
        }
        return lines
    }
}
