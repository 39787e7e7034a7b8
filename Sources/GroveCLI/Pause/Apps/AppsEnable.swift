import ArgumentParser
import Foundation
import GroveCore
import GroveStore

struct AppsEnable: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "enable", abstract: "Gate an app (at most 10).")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "The app's id (see `grove apps`).", completion: Completions.apps) var id: String
    func run() throws {
        let db = try options.open()
        try db.pause.setAppEnabled(id: id, true)
        if options.json { return try Output.json(try db.pause.app(id: id)) }
        print("\(id) is gated.")
    }
}
