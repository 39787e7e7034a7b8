import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// `grove timer stop NAME`
struct TimerStop: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stop", abstract: "Stop a timer's countdown.")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "Timer name or id.", completion: Completions.timers) var timer: String

    func run() throws {
        let db = try options.open()
        let found = try TimerLookup.find(timer, in: db)
        guard try db.timers.stop(timerId: found.id) else { throw TimerRunError.noRun(found.name) }
        if options.json { return try Output.json(["stopped": found.id.uuidString]) }
        print("\(found.name) stopped.")
    }
}
