import ArgumentParser
import Foundation
import GroveCore
import GroveStore

struct TodoToggle: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "toggle", abstract: "Tick or untick a to-do (by number or id).")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "Timer name or id.", completion: Completions.timers) var timer: String
    @Argument(help: "To-do number (from 1) or id.") var todo: String

    func run() throws {
        let db = try options.open()
        let t = try TimerLookup.find(timer, in: db)
        let item = try db.timers.toggleTodo(timerID: t.id, todoID: try TimerLookup.todo(todo, in: t).id)
        if options.json { return try Output.json(TodoItemDTO(from: item)) }
        print("\(item.sortOrder + 1). [\(item.isCompleted ? "x" : " ")] \(item.text)")
    }
}
