import ArgumentParser
import Foundation
import GroveCore
import GroveRemote
import GroveStore
import Logging

/// `grove content source …`: content packs fetched over HTTP(S), refreshed once a day.
struct ContentSourceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "source", abstract: "Content packs fetched from the web (checked once a day; the bundled pack always stays).",
        discussion: """
              grove content source add https://example.org/grove-pack.json
              grove content source list
              grove content source refresh           # every source now, ignoring the day's freshness
              grove content source remove https://example.org/grove-pack.json
            `grove serve` refreshes sources in the background. The pack format is in the README.
            """,
        subcommands: [ContentSourceList.self, ContentSourceAdd.self, ContentSourceRemove.self, ContentSourceRefresh.self],
        defaultSubcommand: ContentSourceList.self)
}

extension ContentRefresher {
    /// A refresher whose results the command prints itself (the log would say them twice).
    static func printing(_ database: AppDatabase) -> ContentRefresher {
        var logger = Logger(label: "grove.content")
        logger.logLevel = .critical
        return ContentRefresher(database: database, logger: logger)
    }
}
