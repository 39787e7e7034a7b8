import ArgumentParser
import Foundation
import GroveCore
import GroveStore

struct TodoMove: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "move", abstract: "Move a to-do to a new position (from 1).")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "Timer name or id.", completion: Completions.timers) var timer: String
    @Argument(help: "To-do number (from 1) or id.") var todo: String
    @Argument(help: "New position (from 1).") var position: Int

    func run() throws {
        let db = try options.open()
        let t = try TimerLookup.find(timer, in: db)
        try db.timers.moveTodo(timerID: t.id, todoID: try TimerLookup.todo(todo, in: t).id, to: position - 1)
        let updated = try TimerLookup.find(t.id.uuidString, in: db)
        if options.json { return try Output.json(TimerDTO(from: updated)) }
        TimerText.checklist(updated).forEach { print($0) }
    }
}
