import ArgumentParser
import Foundation
import GroveCore
import GroveStore

enum TimerText {
    static func summary(_ t: NamedTimer) -> String {
        let done = t.todoItems.filter(\.isCompleted).count
        let todos = t.todoItems.isEmpty ? "" : "  \(done)/\(t.todoItems.count) done"
        return "\(t.formattedDuration.padding(toLength: 9, withPad: " ", startingAt: 0)) \(t.name)\(todos)  \(String(t.id.uuidString.prefix(8)).lowercased())"
    }

    static func checklist(_ t: NamedTimer) -> [String] {
        t.todoItems.enumerated().map { "  \($0.offset + 1). [\($0.element.isCompleted ? "x" : " ")] \($0.element.text)" }
    }
}
