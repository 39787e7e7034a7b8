import ArgumentParser
import Foundation
import GroveCore
import GroveStore

struct FocusPause: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "pause", abstract: "Pause the running session.")
    @OptionGroup var options: GlobalOptions
    func run() throws {
        let db = try options.open()
        try FocusReport.show(try db.focus.pause(), db: db, options: options, verb: "Paused")
    }
}
