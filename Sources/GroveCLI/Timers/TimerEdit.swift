import ArgumentParser
import Foundation
import GroveCore
import GroveStore

struct TimerEdit: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "edit", abstract: "Change a timer.")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "Timer name or id.", completion: Completions.timers) var timer: String
    @Option(name: .long, help: "New name.") var name: String?
    @Option(name: .long, help: "New length.") var duration: String?
    @Option(name: .long, help: TimerAdd.iconHelp, completion: Completions.icons) var icon: String?
    @Option(name: .long, help: "New colour.") var color: String?
    @Option(name: .long, help: "New notes (\"\" clears them).") var notes: String?

    func run() throws {
        let db = try options.open()
        let t = try TimerLookup.find(timer, in: db)
        let seconds = try duration.map { Int(try TimeParsing.duration($0, field: "duration").rounded()) }
        let updated = try db.timers.update(id: t.id, name: name, durationInSeconds: seconds, icon: icon, colorHex: color, notes: notes)
        if options.json { return try Output.json(TimerDTO(from: updated)) }
        print("Updated \(TimerText.summary(updated))")
    }
}
