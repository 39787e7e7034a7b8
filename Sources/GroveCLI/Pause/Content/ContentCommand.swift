import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// `grove content …`: the quotes, excerpts and prompts a pause shows.
struct ContentCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "content", abstract: "The quotes, excerpts and prompts pauses show.",
        discussion: """
              grove content list --category stoicism
              grove content add --type prompt --category mindfulness --text "What are you hoping to find in there right now?"
              grove content import pack.json     # a JSON array of content items
              grove content categories stoicism nature
              grove content source add https://example.org/pack.json   # a pack from the web, refreshed daily
            """,
        subcommands: [
            ContentList.self, ContentAdd.self, ContentRemove.self, ContentImport.self, ContentCategories.self, ContentSourceCommand.self,
        ],
        defaultSubcommand: ContentList.self)
}
