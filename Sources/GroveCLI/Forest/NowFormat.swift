import ArgumentParser
import Foundation
import GroveCore

/// How `grove now` prints its line: for a shell prompt (text), a program (json), or a status bar's
/// custom module, each with a tooltip and a state it can style.
enum NowFormat: String, CaseIterable, ExpressibleByArgument {
    case text, json, waybar, i3blocks, polybar

    /// The state a bar styles: `focus` (a session running), `paused`, `break` (after a tree), `done`
    /// (a timer rang), `intention` (no session; today's intention) or `idle`.
    static func state(_ report: NowCommand.Report) -> String {
        if report.timers.contains(where: { $0.state == .finished }) { return "done" }
        if let session = report.session { return session.state == .paused ? "paused" : "focus" }
        if report.break != nil { return "break" }
        return report.intention == nil ? "idle" : "intention"
    }

    /// Everything behind the line, one fact per line: what a bar shows on hover.
    static func tooltip(_ report: NowCommand.Report) -> String {
        var lines: [String] = []
        if let session = report.session {
            let tags = session.tags.isEmpty ? "" : " for \(FocusTags.display(session.tags))"
            let figure =
                report.remaining.map { "\(DurationParser.clock($0)) left of \(DurationParser.clock(session.plannedDuration))" }
                ?? "\(DurationParser.clock(report.focusTime ?? 0)) so far, open-ended"
            lines.append("Focus\(tags): \(figure)\(session.state == .paused ? ", paused" : "")")
        }
        if let pause = report.break {
            lines.append("\(pause.kind == .long ? "Long" : "Short") break: \(DurationParser.clock(pause.remaining)) left")
        }
        if let intention = report.intention { lines.append("Intention: \(intention.text)") }
        lines += report.timers.map { TimerText.run($0) }
        return lines.isEmpty ? "Grove: nothing running" : lines.joined(separator: "\n")
    }

    /// The colour i3blocks and polybar draw the line in, per state (nil: the bar's own).
    static func color(_ state: String) -> String? {
        switch state {
        case "focus": "#4CAF50"
        case "paused": "#E0A100"
        case "break": "#4A90D9"
        case "done": "#E5533D"
        default: nil
        }
    }

    /// `text` as one line a bar or a prompt can show: a line break, tab or any other control character
    /// stored in an intention or a timer's name becomes a space (a newline would end i3blocks' and
    /// polybar's line, and the next would be read as the colour).
    static func oneLine(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }))
    }

    /// `text` as Pango markup reads it (Waybar draws `text` and `tooltip` as markup): "Tom & Jerry" or
    /// "<3" would otherwise be invalid markup, and the bar would show nothing.
    static func pango(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&#39;")
    }

    /// The output for `report`: nil for text and json, which `NowCommand` prints itself.
    func render(_ report: NowCommand.Report) -> String? {
        let state = Self.state(report)
        let line = Self.oneLine(report.text)
        switch self {
        case .text, .json: return nil
        case .waybar:
            // Waybar's custom module with `"return-type": "json"`: one object per line, its texts markup.
            let tooltip = Self.tooltip(report).split(separator: "\n", omittingEmptySubsequences: false).map { Self.oneLine(String($0)) }
                .joined(separator: "\n")
            let object: [String: String] = ["text": Self.pango(line), "tooltip": Self.pango(tooltip), "class": state, "alt": state]
            guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return nil }
            return String(decoding: data, as: UTF8.self)
        case .i3blocks:
            // full_text, short_text, colour: one per line.
            let short = line.split(separator: " · ").first.map(String.init) ?? ""
            return [line, short, Self.color(state) ?? ""].joined(separator: "\n")
        case .polybar:
            // Polybar's format tags: `%` is doubled, a colour wraps the line.
            let text = line.replacingOccurrences(of: "%", with: "%%")
            return Self.color(state).map { "%{F\($0)}\(text)%{F-}" } ?? text
        }
    }
}
