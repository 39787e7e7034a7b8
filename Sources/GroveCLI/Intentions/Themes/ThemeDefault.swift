import ArgumentParser
import Foundation
import GroveCore
import GroveStore

struct ThemeDefault: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "default", abstract: "Choose the default theme for cards.")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "The theme's name (or the start of its id).", completion: Completions.themes) var theme: String
    func run() throws {
        let db = try options.open()
        let t = try ThemeLookup.find(theme, in: db)
        try db.themes.setDefault(t.id)
        if options.json { return try Output.json(t) }
        print("Default theme: \(t.name).")
    }
}
