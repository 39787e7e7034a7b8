import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// `grove theme …`
struct ThemeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "theme", abstract: "Themes for intention cards.",
        discussion: """
              grove theme list
              grove theme add Desert --background "#EDC9AF" --text "#3B2F2F"
              grove theme generate "calm ocean morning"
              grove theme edit Desert --text "#2B1F1F"
              grove theme rm Desert
              grove theme default Ocean
            """,
        subcommands: [
            ThemeList.self, ThemeAdd.self, ThemeEdit.self, ThemeRemove.self, ThemeGenerate.self, ThemeDefault.self, ThemeFont.self,
        ],
        defaultSubcommand: ThemeList.self)
}
