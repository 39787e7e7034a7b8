import ArgumentParser
import Foundation
import GroveCore
import GroveStore

struct AppsRemove: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Delete an app and its pause history.")
    @OptionGroup var options: GlobalOptions
    @Argument var id: String
    func run() throws {
        let db = try options.open()
        try db.deleteApp(id: id)
        if options.json { return try Output.json(["deleted": id]) }
        print("Deleted \(id).")
    }
}
