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

struct ContentSourceList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List content sources and when each was last fetched.")
    @OptionGroup var options: GlobalOptions

    func run() throws {
        let db = try options.open()
        let sources = try db.content.sources()
        if options.json { return try Output.json(sources) }
        guard !sources.isEmpty else { return print("No content sources: pauses draw from the bundled pack and your own items.") }
        let formatter = ISO8601DateFormatter()
        for source in sources {
            let fetched = source.lastFetched.map { "fetched \(formatter.string(from: $0))" } ?? "never fetched"
            print(
                "\(source.url)\n  \(source.itemCount) item\(source.itemCount == 1 ? "" : "s"), \(fetched)\(source.lastError.map { "; last check failed: \($0)" } ?? "")"
            )
        }
    }
}

struct ContentSourceAdd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a content source and fetch its pack.")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "The pack's http(s) URL.") var url: String
    @Flag(name: .long, help: "Only add it; the next refresh fetches it.") var noFetch = false

    func run() async throws {
        let db = try options.open()
        guard !noFetch else {
            let source = try db.content.addSource(url: url)
            if options.json { return try Output.json(source) }
            return print("Added \(source.url).")
        }
        // Kept only when its pack could be fetched and read now (else refused, naming why).
        let outcome = try await ContentRefresher.printing(db).add(url: url)
        try ContentSourceRefresh.report([outcome], json: options.json)
    }
}

struct ContentSourceRemove: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Remove a content source and its items.",
        discussion: "Items a pause already showed are kept for that pause's history and no longer shown.")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "The source's URL, as listed.") var url: String

    func run() throws {
        let report = try options.open().content.removeSource(url: url)
        if options.json { return try Output.json(report) }
        print(
            "Removed \(url): \(report.removed) item\(report.removed == 1 ? "" : "s") deleted\(report.retired > 0 ? ", \(report.retired) kept for past pauses" : "")."
        )
    }
}

struct ContentSourceRefresh: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "refresh", abstract: "Fetch every source's pack now (or one source's).")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "Only this source.") var url: String?

    func run() async throws {
        let db = try options.open()
        let refresher = ContentRefresher.printing(db)
        let outcomes = if let url { [try await refresher.refresh(url: url)] } else { try await refresher.refresh(force: true) }
        if outcomes.isEmpty, !options.json { return print("No content sources to refresh.") }
        try Self.report(outcomes, json: options.json)
    }

    /// One line per source, then each skipped item; a failure is reported, not thrown: the source
    /// stays and the bundled pack still serves (exit 0 would hide it from scripts, so it is 1).
    static func report(_ outcomes: [ContentRefresher.Outcome], json: Bool) throws {
        if json {
            try Output.json(outcomes.map(ContentRefreshJSON.init))
        } else {
            for outcome in outcomes {
                switch outcome.result {
                case .updated(let r):
                    print(
                        "\(outcome.url): \(r.added) new, \(r.updated) updated, \(r.removed + r.retired) withdrawn, \(r.skipped.count) skipped"
                    )
                    for skipped in r.skipped { print("  skipped \(skipped.description)") }
                case .unchanged: print("\(outcome.url): not modified since the last fetch")
                case .failed(let message): print("\(outcome.url): \(message) (kept what was there; the bundled pack still serves)")
                }
            }
        }
        if outcomes.contains(where: { if case .failed = $0.result { true } else { false } }) { throw ExitCode.failure }
    }
}
