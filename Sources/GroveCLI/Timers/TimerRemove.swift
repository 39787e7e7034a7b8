import ArgumentParser
import Foundation
import GroveCore
import GroveStore

struct TimerRemove: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Delete a timer and its checklist.")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "Timer name or id.", completion: Completions.timers) var timer: String

    func run() throws {
        let db = try options.open()
        let t = try TimerLookup.find(timer, in: db)
        try db.timers.delete(id: t.id)
        if options.json { return try Output.json(TimerUpdateMessage(type: .deleted, timer: nil, timerID: t.id)) }
        print("Deleted \(t.name) and its \(t.todoItems.count) to-do\(t.todoItems.count == 1 ? "" : "s").")
    }
}
