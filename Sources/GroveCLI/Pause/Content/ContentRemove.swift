import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// `grove content rm ID`: the CLI's face of `DELETE /api/v1/pause/content/:id`.
struct ContentRemove: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm", abstract: "Remove a content item (one a pause showed is retired: kept for its history, never shown again).")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "The item's id (grove content list shows them).") var id: String

    func run() throws {
        let db = try options.open()
        let retired = try db.content.delete(id: id)
        if options.json { return try Output.json(["id": id, "outcome": retired ? "retired" : "deleted"]) }
        print(retired ? "Retired \(id): the pauses that showed it keep it; it is not shown again." : "Deleted \(id).")
    }
}
