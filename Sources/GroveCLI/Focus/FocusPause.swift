import ArgumentParser
import Foundation
import GroveCore
import GroveStore
import GroveSystem

struct FocusPause: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "pause", abstract: "Pause the running session.")
    @OptionGroup var options: GlobalOptions
    func run() throws {
        let db = try options.open()
        let session = try db.focus.pause()
        NotificationHold.of(db)?.release()  // paused, the person is back: so are the notifications
        try FocusReport.show(session, db: db, options: options, verb: "Paused")
    }
}
