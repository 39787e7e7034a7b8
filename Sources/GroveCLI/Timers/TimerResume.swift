import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// `grove timer resume NAME`
struct TimerResume: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "resume", abstract: "Resume a paused timer.")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "Timer name or id.", completion: Completions.timers) var timer: String

    func run() throws {
        let db = try options.open()
        let status = try db.timers.resume(timerId: try TimerLookup.find(timer, in: db).id)
        status.armWaiter(db)
        if options.json { return try Output.json(status) }
        print("\(status.name) running: \(DurationParser.clock(status.remaining)) left.")
    }
}
