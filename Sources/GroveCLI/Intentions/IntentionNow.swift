import ArgumentParser
import Foundation
import GroveCore
import GroveStore

struct IntentionNow: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "now", abstract: "Show today's intention as a card.")
    @OptionGroup var options: GlobalOptions
    @Option(name: .long, help: "Another day (YYYY-MM-DD).") var date: String?

    func run() throws { try Self.run(options.plain, date: date) }

    /// The card, for whichever parse made the command (`EverydayParse.immediate`: today's).
    static func run(_ options: PlainOptions, date: String? = nil) throws {
        let db = try options.open()
        let calendar = try db.calendar()
        let day = try date.map { try TimeParsing.day($0, today: calendar.localDay(of: db.environment.now())) }
        let intention = try db.intentions.current(on: day)
        if options.json { return try Output.json(intention) }
        guard let intention else {
            return print("No intention for \(day.map(\.description) ?? "today"). Set one: grove intention set \"…\"")
        }
        print(
            IntentionCard.render(intention, theme: try db.themes.display(for: intention), calendar: try db.calendar(), traits: .current()))
    }
}
