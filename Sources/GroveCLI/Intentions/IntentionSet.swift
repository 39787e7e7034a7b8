import ArgumentParser
import Foundation
import GroveCore
import GroveStore

struct IntentionSet: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set", abstract: "Set the intention for a day, week or month (replaces that period's).")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "The intention.") var text: String
    @Option(name: .long, help: "day, week or month.", completion: Completions.scopes) var scope: String = "day"
    @Option(name: .long, help: "A day in the period: YYYY-MM-DD, today, tomorrow (default today).") var date: String?
    @Option(name: .long, help: "Theme name or id.", completion: Completions.themes) var theme: String?
    @Option(name: .long, help: "A font for this card only (else the theme's).") var font: String?
    @Option(name: .long, help: "A quote shown under the words.") var quote: String?
    @Flag(name: .long, help: "The words came from the assistant (marked as such).") var aiGenerated = false

    func run() throws {
        let scope = try ScopeOption.parse(scope)
        let db = try options.open()
        let calendar = try db.calendar()
        let day = try date.map { try TimeParsing.day($0, today: calendar.localDay(of: db.environment.now())) }
        let themeID = try theme.map { try ThemeLookup.find($0, in: db).id }
        let intention = try db.intentions.set(
            text, scope: scope, date: day, themeId: themeID, customFont: font, quote: quote, aiGenerated: aiGenerated)
        if options.json { return try Output.json(intention) }
        print(
            "\(scope.displayName) intention for \(scope.periodDescription(containing: intention.date, calendar: calendar)): \(intention.text)"
        )
    }
}
