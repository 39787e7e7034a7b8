import ArgumentParser
import Foundation
import GroveCore
import GroveRemote
import GroveStore
import Logging

struct ContentSourceRemove: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Remove a content source and its items.",
        discussion: "Items a pause already showed are kept for that pause's history and no longer shown.")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "The source's URL, as listed.") var url: String

    func run() throws {
        let report = try options.open().content.removeSource(url: url)
        if options.json { return try Output.json(report) }
        print(
            "Removed \(url): \(report.removed) item\(report.removed == 1 ? "" : "s") deleted\(report.retired > 0 ? ", \(report.retired) kept for past pauses" : "")."
        )
    }
}
