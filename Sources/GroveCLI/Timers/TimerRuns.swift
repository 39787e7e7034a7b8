import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// `grove timer runs`: every timer counting down, paused or done.
struct TimerRuns: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "runs", abstract: "Show the timers counting down, paused or done.")
    @OptionGroup var options: GlobalOptions

    func run() throws {
        let db = try options.open()
        let runs = try db.timers.runs()
        if options.json { return try Output.json(runs) }
        guard !runs.isEmpty else { return print("No timer is counting down. Start one: grove timer start NAME") }
        for run in runs { print(TimerText.run(run)) }
    }
}
