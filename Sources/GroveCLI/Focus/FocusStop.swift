import ArgumentParser
import Foundation
import GroveCore
import GroveStore
import GroveSystem

/// `grove focus stop`: ends an open-ended session, planting its tree.
struct FocusStop: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stop", abstract: "Stop the open-ended session: its tree grows by the time spent.",
        discussion: """
              grove focus start --open --tag essay  …  grove focus stop
            A tree costs a minute of focus: stopped sooner, the session is given up and plants none.
            """)
    @OptionGroup var options: GlobalOptions

    func run() throws {
        let db = try options.open()
        let session = try db.focus.stop()
        NotificationHold.of(db)?.release()  // at once, not when the session's waiter next looks
        if options.json { return try Output.json(FocusStatusReport(session, now: session.endTime ?? session.startTime)) }
        guard session.state == .completed else {
            return print("\(CompletionNotice.stoppedShort(after: session.duration)) \(TreeLook(session).glyph)")
        }
        print(
            "Tree planted: \(ForestStats.formatDuration(session.duration)) of focus\(session.tags.isEmpty ? "" : " for \(FocusTags.display(session.tags))") \(TreeLook(session).glyph)"
        )
    }
}
