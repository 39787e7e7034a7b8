import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// `grove apps paths ID [PATH…]`: gate some parts of a site only (YouTube's Shorts, Instagram's Reels).
struct AppsPaths: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "paths",
        abstract: "Gate only these parts of an app's site (e.g. /shorts); with none, the whole site again.")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "The app's id.") var id: String
    @Argument(help: "Paths such as /shorts or /reels (at most 20).") var paths: [String] = []

    func run() throws {
        let app = try options.open().pause.setGatedPaths(id: id, paths)
        if options.json { return try Output.json(app) }
        print(
            app.gatedPaths.isEmpty
                ? "\(app.displayName): the whole site is gated."
                : "\(app.displayName): only \(app.gatedPaths.joined(separator: ", ")) \(app.gatedPaths.count == 1 ? "is" : "are") gated; the rest of the site opens freely."
        )
    }
}
