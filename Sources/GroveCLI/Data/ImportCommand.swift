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
        let data: Data
        data = try InputFile.read(file)
        let db = try options.open()
        let export: GroveExport
        do { export = try GroveExport.makeDecoder().decode(GroveExport.self, from: data) } catch let error as DecodingError {
            throw StoreError.unreadableExport(AppDatabase.describe(error))
        } catch {
            throw StoreError.unreadableExport("not valid JSON")
        }
        let summary = try db.importData(export)
        if options.json { return try Output.json(summary) }
        print(summary.sentence)
    }
}
