import ArgumentParser
import Foundation
import GroveCore
import GroveRemote
import GroveStore

struct ThemeGenerate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate", abstract: "Generate a readable theme from a few words (a language model if one is set up).",
        discussion: "A model's palette is used when it is readable (4.5:1); otherwise the offline assistant's colours for your words.")
    @OptionGroup var options: GlobalOptions
    @Argument var prompt: String

    func run() async throws {
        let words = try ThemesRoom.checkedPrompt(prompt)
        let db = try options.open()
        let assistant = Assistant(try AssistantConfiguration.resolve(environment: CLIEnvironment.current.variables, database: db))
        let theme = try db.themes.generate(prompt: words, proposal: await assistant.theme(for: words))
        if options.json { return try Output.json(theme) }
        print(
            "\(Style(.current()).colors("  \(theme.name)  ", foreground: theme.textColor, background: theme.backgroundColor)) \(theme.backgroundColor)/\(theme.textColor), contrast \(String(format: "%.1f", theme.contrastRatio)):1"
        )
    }
}
