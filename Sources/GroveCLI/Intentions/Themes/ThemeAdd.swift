import ArgumentParser
import Foundation
import GroveCore
import GroveStore

struct ThemeAdd: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a custom theme.")
    @OptionGroup var options: GlobalOptions
    @Argument var name: String
    @Option(name: .long, help: "Background, #RRGGBB.") var background: String
    @Option(name: .long, help: "Text colour, #RRGGBB.") var text: String
    @Option(name: .long, help: "Accent colour, #RRGGBB.") var accent: String?
    @Option(
        name: .long,
        help: "Font: system, serif, sans, rounded, mono, handwritten, or a font's name (the web draws it; the terminal has one font).")
    var font: String?
    @Flag(name: .long, help: "Save colours under the 4.5:1 contrast that keeps text readable anyway.") var allowLowContrast = false

    func run() throws {
        let db = try options.open()
        let theme = IntentionTheme(
            id: db.environment.uuid(), name: name, backgroundColor: background, textColor: text,
            accentColor: accent, fontName: font, createdAt: db.environment.now()
        ).normalized
        try db.themes.create(theme, allowLowContrast: allowLowContrast)
        ThemeContrast.warn(theme)
        if options.json { return try Output.json(theme) }
        print("Added \(name) (contrast \(String(format: "%.1f", theme.contrastRatio)):1).")
    }
}
