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
        try db.importExport(export)
        let summary = ["focusSessions": export.focusSessions.count, "timers": export.timers.count, "intentions": export.intentions.count,
                       "gatewaySessions": export.gatewaySessions.count, "themes": export.themes.count]
        if options.json { return try Output.json(summary) }
        print("Imported \(export.focusSessions.count) focus sessions, \(export.timers.count) timers, \(export.intentions.count) intentions, \(export.gatewaySessions.count) pauses.")
    }
}
