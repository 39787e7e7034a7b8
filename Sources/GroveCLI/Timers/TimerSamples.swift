import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// `grove timer samples`: seed 001's sample timers (also offered by `grove setup`).
struct TimerSamples: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "samples", abstract: "Add the sample timers (a workout, a study session, a coffee break, a meditation).")
    @OptionGroup var options: GlobalOptions

    func run() throws {
        let db = try options.open()
        let added = try db.timers.loadSamples()
        if options.json { return try Output.json(["added": added]) }
        print(added == 0 ? "The sample timers are already there." : "Added \(added) sample timer\(added == 1 ? "" : "s"): grove timer list")
    }
}
