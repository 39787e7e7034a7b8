import ArgumentParser
import Foundation
import GroveCore
import GroveStore

struct IntentionList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List intentions, newest first.")
    @OptionGroup var options: GlobalOptions
    @Option(name: .long, help: "Only this scope.", completion: Completions.scopes) var scope: String?
    @Option(name: .long, help: "From this day.") var from: String?
    @Option(name: .long, help: "To this day.") var to: String?

    func run() throws { try Self.run(options.plain, scope: scope, from: from, to: to) }

    /// The list, for whichever parse made the command (`EverydayParse.immediate`: every intention).
    static func run(_ options: PlainOptions, scope: String? = nil, from: String? = nil, to: String? = nil) throws {
        let db = try options.open()
        let today = try db.calendar().localDay(of: db.environment.now())
        var items: [Intention]
        if from != nil || to != nil {
            items = try db.intentions.all(
                from: try from.map { try TimeParsing.day($0, field: "from", today: today) } ?? LocalDay.earliest,
                to: try to.map { try TimeParsing.day($0, field: "to", today: today) } ?? LocalDay.latest)
            if let scope { let s = try ScopeOption.parse(scope); items = items.filter { $0.scope == s } }
        } else if let scope {
            items = try db.intentions.all(scope: try ScopeOption.parse(scope))
        } else {
            items = try db.intentions.all()
        }
        try IntentionPrinter.show(items, calendar: try db.calendar(), json: options.json)
    }
}
