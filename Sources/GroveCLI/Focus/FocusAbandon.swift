import ArgumentParser
import Foundation
import GroveCore
import GroveStore
import GroveSystem

struct FocusAbandon: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "abandon", abstract: "Give up the session (no tree).")
    @OptionGroup var options: GlobalOptions
    func run() throws {
        let db = try options.open()
        let session = try db.focus.abandon()
        NotificationHold.of(db)?.release()  // at once, not when the session's waiter next looks
        if options.json { return try Output.json(FocusStatusReport(session, now: session.endTime ?? db.environment.now())) }
        print("Abandoned after \(ForestStats.formatDuration(session.duration)) of focus. No tree this time.")
    }
}
