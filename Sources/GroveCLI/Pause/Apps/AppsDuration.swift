import ArgumentParser
import Foundation
import GroveCore
import GroveStore

struct AppsDuration: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "duration", abstract: "Set the pause length (15–45 s).")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "e.g. 30s") var duration: String
    func run() throws {
        let seconds = Int(try TimeParsing.duration(duration, field: "duration").rounded())
        let db = try options.open()
        // One transaction: a setting changed meanwhile elsewhere (the web, another terminal) is kept.
        let p = try db.pause.changePreferences { $0.timerDuration = seconds }
        if options.json { return try Output.json(p) }
        print("Pauses last \(p.timerDuration) s.")
    }
}
