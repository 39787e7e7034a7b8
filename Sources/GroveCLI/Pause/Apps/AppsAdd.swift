import ArgumentParser
import Foundation
import GroveCore
import GroveStore
import GroveSystem

struct AppsAdd: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add an app or site.")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "Id: lowercase letters, digits, hyphens.") var id: String
    @Option(name: .long, help: "Display name.") var name: String
    @Option(name: .long, help: "The site: its web URL, opened when proceeding and gated in the browser.") var url: String?
    @Option(name: .long, help: "A program to gate: writes a desktop-menu launcher that pauses first (see `grove apps launcher`).") var exec:
        String?
    @Option(name: .long, help: "The app's URL scheme on a phone (default ID://).") var scheme: String?
    @Option(name: .long, help: "Its icon's name (default: the id).") var icon: String?
    @Option(name: .long, help: "Gate only this part of the site (e.g. /shorts); repeatable. Default: the whole site.") var path: [String] =
        []
    @Flag(name: .long, help: "Gate it right away.") var enable = false

    func run() throws {
        let db = try options.open()
        let order = (try db.pause.apps().map(\.order).max() ?? -1) + 1
        let app = SocialApp(
            id: id, displayName: name, urlScheme: scheme ?? SocialApp.defaultScheme(for: id), iconAssetName: icon, isEnabled: enable,
            order: order, webURL: url, gatedPaths: path)
        // The launcher is checked before anything is saved: a bad --exec adds nothing.
        let launcher = try exec.map { try AppsLauncher.launcher(for: app, exec: $0, variables: CLIEnvironment.current.variables) }
        try db.pause.addApp(app)
        let wrote = try launcher.map { try AppsLauncher.write($0, variables: CLIEnvironment.current.variables).path }
        if options.json { return try Output.json(app.normalizingPaths()) }
        print("Added \(app.displayName) (\(app.id))\(enable ? ", enabled" : "")\(wrote.map { "; its launcher is \($0)" } ?? "").")
    }
}
