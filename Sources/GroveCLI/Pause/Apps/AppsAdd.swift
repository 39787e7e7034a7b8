import ArgumentParser
import Foundation
import GroveCore
import GroveStore

struct AppsAdd: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add an app or site.")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "Id: lowercase letters, digits, hyphens.") var id: String
    @Option(name: .long, help: "Display name.") var name: String
    @Option(name: .long, help: "URL scheme, e.g. hn://.") var scheme: String
    @Option(name: .long, help: "Web URL to open when proceeding.") var url: String?
    @Flag(name: .long, help: "Gate it right away.") var enable = false

    func run() throws {
        let db = try options.open()
        let order = (try db.apps().map(\.order).max() ?? -1) + 1
        let app = SocialApp(id: id, displayName: name, urlScheme: scheme, isEnabled: enable, order: order, webURL: url)
        try db.addApp(app)
        if options.json { return try Output.json(app) }
        print("Added \(app.displayName) (\(app.id))\(enable ? ", enabled" : "").")
    }
}
