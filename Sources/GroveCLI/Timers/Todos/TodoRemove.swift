import ArgumentParser
import Foundation
import GroveCore
import GroveStore

struct TodoRemove: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Remove a to-do.")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "Timer name or id.", completion: Completions.timers) var timer: String
    @Argument(help: "To-do number (from 1) or id.") var todo: String

    func run() throws {
        let db = try options.open()
        let t = try TimerLookup.find(timer, in: db)
        let item = try TimerLookup.todo(todo, in: t)
        try db.timers.deleteTodo(timerID: t.id, todoID: item.id)
        if options.json { return try Output.json(TimerDTO(from: try TimerLookup.find(t.id.uuidString, in: db))) }
        print("Removed \"\(item.text)\".")
    }
}
