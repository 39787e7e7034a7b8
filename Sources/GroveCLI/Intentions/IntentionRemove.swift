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
        let matches = try db.intentions().filter { $0.id.uuidString.lowercased().hasPrefix(id.lowercased()) }
        guard matches.count == 1, id.count >= 4 else {
            throw matches.count > 1 ? InvalidField("id", "\"\(id)\" matches several intentions") as Error : NotFoundError("intention", id)
        }
        try db.deleteIntention(id: matches[0].id)
        if options.json { return try Output.json(matches[0]) }
        print("Deleted \"\(matches[0].text)\".")
    }
}
