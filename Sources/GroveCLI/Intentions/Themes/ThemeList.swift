import ArgumentParser
import Foundation
import GroveCore
import GroveStore

struct ThemeList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List themes (presets first).")
    @OptionGroup var options: GlobalOptions
    @Option(name: .long, help: "Only one kind: preset, custom or generated.", completion: Completions.themeKinds) var kind: String?
    func run() throws {
        let db = try options.open()
        let themes = try db.themes.all(try kind.map { try AppDatabase.ThemeKind(validating: $0) })
        if options.json { return try Output.json(themes) }
        let style = Style(.current())
        let defaultID = try db.intentions.preferences().defaultThemeId
        for t in themes {
            let kind = AppDatabase.ThemeKind(of: t).rawValue
            let sample = style.colors(
                "  \(t.name.padding(toLength: 16, withPad: " ", startingAt: 0))  ", foreground: t.textColor, background: t.backgroundColor)
            print(
                "\(t.id == defaultID ? "★" : " ") \(sample) \(t.backgroundColor)/\(t.textColor)  \(kind)  contrast \(String(format: "%.1f", t.contrastRatio)):1\(PresetThemes.description(of: t).map { "  · \($0)" } ?? "")"
            )
        }
    }
}
