import ArgumentParser
import Foundation
import GroveCore
import GroveStore

struct ThemeGenerate: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "generate", abstract: "Generate a readable theme from a few words.")
    @OptionGroup var options: GlobalOptions
    @Argument var prompt: String
    func run() throws {
        let db = try options.open()
        let theme = try db.generateTheme(prompt: prompt)
        if options.json { return try Output.json(theme) }
        print("\(Style(.current()).colors("  \(theme.name)  ", foreground: theme.textColor, background: theme.backgroundColor)) \(theme.backgroundColor)/\(theme.textColor), contrast \(String(format: "%.1f", theme.contrastRatio)):1")
    }
}
