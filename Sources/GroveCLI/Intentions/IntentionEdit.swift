import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// `grove intention edit ID`: the CLI's face of `PUT /api/v1/intentions/:id` (one store operation).
struct IntentionEdit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit", abstract: "Change an intention's words, theme, font, quote or day (within its period).")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "The intention's id (or its first characters).") var id: String
    @Option(name: .long, help: "New words.") var text: String?
    @Option(name: .long, help: "Theme name or id.", completion: Completions.themes) var theme: String?
    @Option(name: .long, help: "A font for this card only (\"\" for the theme's).") var font: String?
    @Option(name: .long, help: "A quote shown under the words (\"\" for none).") var quote: String?
    @Option(name: .long, help: "Another day in the same period: YYYY-MM-DD, today, tomorrow.") var date: String?

    func run() throws {
        let db = try options.open()
        let intention = try IntentionLookup.find(id, in: db)
        let today = try db.calendar().localDay(of: db.environment.now())
        let changes = IntentionChanges(
            text: text, themeId: try theme.map { try ThemeLookup.find($0, in: db).id }, customFont: font, quote: quote,
            date: try date.map { try TimeParsing.day($0, today: today) })
        let edited = try db.intentions.edit(id: intention.id, changes)
        if options.json { return try Output.json(edited) }
        print("\(edited.scope.displayName) intention: \(edited.text)")
    }
}
