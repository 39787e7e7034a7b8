import ArgumentParser
import Foundation
import GroveCore
import GroveRemote
import GroveStore
import Logging

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
