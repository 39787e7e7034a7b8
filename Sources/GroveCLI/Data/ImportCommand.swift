import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// `grove import FILE`
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Import a Grove JSON export (merged by id; nothing is deleted).",
        discussion: "  grove import grove-backup.json")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "A file written by `grove export`.") var file: String

    func run() throws {
        let path = try InputFile.regularFile(file)
        let db = try options.open()
        // Streamed: a file of any size is read a chunk at a time, in one transaction.
        let summary = try db.importJSON(contentsOf: path)
        if options.json { return try Output.json(summary) }
        print(summary.sentence)
    }
}
