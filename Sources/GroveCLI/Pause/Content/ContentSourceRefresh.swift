import ArgumentParser
import Foundation
import GroveCore
import GroveRemote
import GroveStore
import Logging

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
