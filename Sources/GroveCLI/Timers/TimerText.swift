import ArgumentParser
import Foundation
import GroveCore
import GroveStore

enum TimerText {
    static func summary(_ t: NamedTimer) -> String {
        let done = t.todoItems.filter(\.isCompleted).count
        let todos = t.todoItems.isEmpty ? "" : "  \(done)/\(t.todoItems.count) done"
        return
            "\(t.formattedDuration.padding(toLength: 9, withPad: " ", startingAt: 0)) \(t.name)\(todos)  \(String(t.id.uuidString.prefix(8)).lowercased())"
    }

    /// "⏱ Tea  03:12 left", "⏸ Tea  03:12 left, paused", "⏰ Tea  done (…clears it)": a finished timer
    /// rings on in every face (the bar's red state) until stopped, so its line says how.
    static func run(_ r: TimerRunStatus) -> String {
        switch r.state {
        case .running: return "\(glyph(r.state)) \(r.name)  \(DurationParser.clock(r.remaining)) left"
        case .paused: return "\(glyph(r.state)) \(r.name)  \(DurationParser.clock(r.remaining)) left, paused"
        case .finished:
            // Quoted for a shell unless it is one plain word.
            let plain = r.name.allSatisfy { $0.isLetter || $0.isNumber || "-_.".contains($0) }
            let name = plain ? r.name : "'\(r.name.replacingOccurrences(of: "'", with: "'\\''"))'"
            return "\(glyph(r.state)) \(r.name)  done (`grove timer stop \(name)` clears it)"
        }
    }

    static func glyph(_ state: TimerRun.State) -> String {
        switch state {
        case .running: "⏱"
        case .paused: "⏸"
        case .finished: "⏰"
        }
    }

    static func checklist(_ t: NamedTimer) -> [String] {
        t.todoItems.enumerated().map { "  \($0.offset + 1). [\($0.element.isCompleted ? "x" : " ")] \($0.element.text)" }
    }
}
