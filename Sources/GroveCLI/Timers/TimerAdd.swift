import ArgumentParser
import Foundation
import GroveCore
import GroveStore

struct TimerAdd: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a timer.")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "Its name.") var name: String
    @Option(name: .long, help: "Its length, e.g. 25m or 1h30m (up to 24h).") var duration: String
    @Option(name: .long, help: Self.iconHelp, completion: Completions.icons) var icon: String = NamedTimer.defaultIcon
    @Option(name: .long, help: "Colour, #RRGGBB.") var color: String = NamedTimer.defaultColorHex
    @Option(name: .long, help: "Notes.") var notes: String?
    @Option(name: .long, help: "A to-do (repeatable).") var todo: [String] = []

    static let iconHelp = ArgumentHelp(
        "Its icon: \(TimerIcon.words.joined(separator: ", ")), or any symbol's name (alarm.fill).", valueName: "icon")

    func run() throws {
        let db = try options.open()
        let seconds = try TimeParsing.duration(duration, field: "duration")
        let timer = try db.timers.create(
            name: name, durationInSeconds: Int(seconds.rounded()), icon: icon, colorHex: color, notes: notes, todos: todo)
        if options.json { return try Output.json(TimerDTO(from: timer)) }
        print("Added \(TimerText.summary(timer))")
    }
}
