import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// `grove intention …`
struct IntentionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "intention", abstract: "Day, week and month intentions (day > week > month).",
        discussion: """
              grove intention set "Finish the essay draft" --scope week
              grove intention set "One page before lunch"
              grove intention now
              grove intention search essay
              grove intention rephrase --apply
            """,
        subcommands: [
            IntentionSet.self, IntentionEdit.self, IntentionNow.self, IntentionList.self, IntentionSearch.self, IntentionRemove.self,
            IntentionRephrase.self,
        ],
        defaultSubcommand: IntentionNow.self)
}
