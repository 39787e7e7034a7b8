import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// `grove theme edit NAME [--name N] [--background C] [--text C] [--accent C|--no-accent] [--font F|--no-font]`
struct ThemeEdit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit", abstract: "Change one of your themes (presets are read-only).",
        discussion: "  grove theme edit Desert --background \"#F4D9C0\" --font Georgia")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "The theme's name (or the start of its id).", completion: Completions.themes) var theme: String
    @Option(name: .long, help: "A new name.") var name: String?
    @Option(name: .long, help: "Background, #RRGGBB.") var background: String?
    @Option(name: .long, help: "Text colour, #RRGGBB.") var text: String?
    @Option(name: .long, help: "Accent colour, #RRGGBB.") var accent: String?
    @Flag(name: .long, help: "Remove the accent colour.") var noAccent = false
    @Option(name: .long, help: "Font name.") var font: String?
    @Flag(name: .long, help: "Remove the font.") var noFont = false
    @Flag(name: .long, help: "Save colours under the 4.5:1 contrast that keeps text readable anyway.") var allowLowContrast = false

    func validate() throws {
        if accent != nil && noAccent { throw ValidationError("--accent and --no-accent contradict each other") }
        if font != nil && noFont { throw ValidationError("--font and --no-font contradict each other") }
        if [name, background, text, accent, font].allSatisfy({ $0 == nil }) && !noAccent && !noFont {
            throw ValidationError("Say what to change: --name, --background, --text, --accent, --font (or --no-accent, --no-font)")
        }
    }

    func run() throws {
        let db = try options.open()
        let found = try ThemeLookup.find(theme, in: db)
        let saved = try db.themes.edit(id: found.id, allowLowContrast: allowLowContrast) { edited in
            if let name { edited.name = name }
            if let background { edited.backgroundColor = background }
            if let text { edited.textColor = text }
            if let accent { edited.accentColor = accent }
            if noAccent { edited.accentColor = nil }
            if let font { edited.fontName = font }
            if noFont { edited.fontName = nil }
        }
        ThemeContrast.warn(saved)
        if options.json { return try Output.json(saved) }
        print("Saved \(saved.name) (contrast \(String(format: "%.1f", saved.contrastRatio)):1).")
    }
}

/// `grove theme rm NAME`
struct ThemeRemove: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm", abstract: "Delete one of your themes (intentions shown in it fall back to your default).")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "The theme's name (or the start of its id).", completion: Completions.themes) var theme: String

    func run() throws {
        let db = try options.open()
        let found = try ThemeLookup.find(theme, in: db)
        try db.themes.delete(id: found.id)
        if options.json { return try Output.json(["deleted": found.id.uuidString]) }
        print("Deleted \(found.name).")
    }
}
