import ArgumentParser
import Foundation
import GroveCore
import GroveStore

struct IntentionSearch: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "search", abstract: "Find intentions by text (any case, any accents).")
    @OptionGroup var options: GlobalOptions
    @Argument var query: String
    func run() throws {
        let db = try options.open()
        try IntentionPrinter.show(try db.intentions.search(query), calendar: try db.calendar(), json: options.json)
    }
}
