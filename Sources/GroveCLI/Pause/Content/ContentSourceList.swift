import ArgumentParser
import Foundation
import GroveCore
import GroveRemote
import GroveStore
import Logging

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
