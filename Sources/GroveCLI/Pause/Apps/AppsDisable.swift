import ArgumentParser
import Foundation
import GroveCore
import GroveStore

struct AppsDisable: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "disable", abstract: "Stop gating an app.")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "The app's id (see `grove apps`).", completion: Completions.apps) var id: String
    func run() throws {
        let db = try options.open()
        try db.pause.setAppEnabled(id: id, false)
        if options.json { return try Output.json(try db.pause.app(id: id)) }
        print("\(id) is no longer gated.")
    }
}
