import ArgumentParser
import Foundation
import GroveCore
import GroveStore

struct AppsRemove: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm", abstract: "Remove an app (one you paused in front of is retired: its pause history stays).")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "The app's id (see `grove apps`).", completion: Completions.apps) var id: String
    func run() throws {
        let db = try options.open()
        let retired = try db.pause.deleteApp(id: id)
        if options.json { return try Output.json(["deleted": id, "outcome": retired ? "retired" : "deleted"]) }
        print(retired ? "Removed \(id); its pauses stay in your statistics (add it again to bring it back)." : "Deleted \(id).")
    }
}
