import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// `grove theme font NAME`: the CLI's face of `PUT /api/v1/preferences/default-font`.
struct ThemeFont: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "font", abstract: "Choose the default font of intention cards (none: the page's own).")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "system, serif, sans, rounded, mono, handwritten, a family name, or none.") var font: String

    func run() throws {
        let db = try options.open()
        let preferences = try db.themes.setDefaultFont(font.lowercased() == "none" ? nil : font)
        if options.json { return try Output.json(preferences) }
        print("Default font: \(preferences.defaultFont ?? "the page's own").")
    }
}
