import ArgumentParser
import Foundation
import GroveCore
import GroveStore

struct AppsDuration: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "duration", abstract: "Set the pause length (15–45 s).")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "e.g. 30s") var duration: String
    func run() throws {
        let db = try options.open()
        var p = try db.pausePreferences()
        p.timerDuration = Int(try TimeParsing.duration(duration, field: "timerDuration").rounded())
        try db.updatePausePreferences(p)
        if options.json { return try Output.json(p) }
        print("Pauses last \(p.timerDuration) s.")
    }
}
