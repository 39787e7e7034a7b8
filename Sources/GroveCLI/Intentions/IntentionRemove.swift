import ArgumentParser
import Foundation
import GroveCore
import GroveStore

struct IntentionRemove: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Delete an intention by id (or its first characters).")
    @OptionGroup var options: GlobalOptions
    @Argument var id: String
    func run() throws {
        let db = try options.open()
        let intention = try IntentionLookup.find(id, in: db)
        try db.intentions.delete(id: intention.id)
        if options.json { return try Output.json(intention) }
        print("Deleted \"\(intention.text)\".")
    }
}
