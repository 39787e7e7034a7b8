import ArgumentParser
import Foundation
import GroveCore
import GroveStore

struct TodoAdd: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a to-do at the end.")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "Timer name or id.", completion: Completions.timers) var timer: String
    @Argument(help: "The to-do.") var text: String

    func run() throws {
        let db = try options.open()
        let t = try TimerLookup.find(timer, in: db)
        let item = try db.timers.addTodo(timerID: t.id, text: text)
        if options.json { return try Output.json(TodoItemDTO(from: item)) }
        print("\(item.sortOrder + 1). [ ] \(item.text)")
    }
}
