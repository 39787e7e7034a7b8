import ArgumentParser
import Foundation
import GroveCore
import GroveStore

struct ContentImport: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "import", abstract: "Import a content pack (a JSON array of items).")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "The JSON file.") var file: String

    func run() throws {
        let data: Data
        data = try InputFile.read(file)
        let items: [MindfulnessContent]
        do { items = try GroveExport.makeDecoder().decode([MindfulnessContent].self, from: data) } catch {
            throw CLIError.usage(
                "\(file) is not a content pack (a JSON array of {id, type, text, category, …}): \(error.localizedDescription)")
        }
        let db = try options.open()
        try db.content.save(
            items.map {
                var i = $0; i.isBundled = false; return i
            })
        if options.json { return try Output.json(["imported": items.count]) }
        print("Imported \(items.count) item\(items.count == 1 ? "" : "s").")
    }
}
