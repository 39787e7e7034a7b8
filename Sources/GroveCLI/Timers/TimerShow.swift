import ArgumentParser
import Foundation
import GroveCore
import GroveStore

struct TimerShow: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show a timer and its checklist.")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "Timer name or id.", completion: Completions.timers) var timer: String

    func run() throws {
        let db = try options.open()
        let t = try TimerLookup.find(timer, in: db)
        if options.json { return try Output.json(TimerDTO(from: t)) }
        let style = Style(.current())
        print(
            style.colors("● ", foreground: t.colorHex, background: nil) + style.bold(t.name)
                + "  \(t.formattedDuration)  (\(TimerIcon.word(for: t.icon)))")
        if let notes = t.notes { print("  \(notes)") }
        TimerText.checklist(t).forEach { print($0) }
        print(style.dim("  id \(t.id.uuidString.lowercased())"))
    }
}
