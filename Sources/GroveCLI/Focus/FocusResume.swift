import ArgumentParser
import Foundation
import GroveCore
import GroveStore

struct FocusResume: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "resume", abstract: "Resume the paused session.")
    @OptionGroup var options: GlobalOptions
    func run() throws {
        let db = try options.openForFocus()
        let session = try db.focus.resume()
        session.armWaiter(db)
        try FocusReport.show(session, db: db, options: options, verb: "Resumed")
    }
}
