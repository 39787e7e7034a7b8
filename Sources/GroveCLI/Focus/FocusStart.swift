import ArgumentParser
import Foundation
import GroveCore
import GroveStore

struct FocusStart: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "start", abstract: "Start a session in the background.",
        discussion: """
            The session lives in the store, not in this command: `grove now`, `grove focus status`, the \
            web app and `grove serve` all follow it, and a small waiter left behind rings when the tree \
            is grown (with notify-send). Without --length it runs your configured length (grove focus \
            config); a tree costs at least a minute of focus, a session at most 4 hours.

              grove focus start --length 50m --tag essay
              grove focus start --open          # count up; grove focus stop plants the tree
            """)
    @OptionGroup var options: GlobalOptions
    @Option(
        name: .long, help: ArgumentHelp("Session length, 1m to 4h (a tree costs a minute), e.g. 25m, 90s, 1h30m.", valueName: "duration"))
    var length: String?
    @Flag(name: .long, help: "Open-ended: count up until `grove focus stop`; the tree grows by the time spent.")
    var open = false
    @OptionGroup var tagging: TagOptions

    func validate() throws {
        if open, length != nil { throw ValidationError("--open and --length cannot be combined: an open session has no length") }
    }

    func run() throws {
        let db = try options.openForFocus()
        let session = try db.focus.start(
            plannedDuration: try length.map { try TimeParsing.duration($0, field: "length") }, openEnded: open, tags: try tagging.tags())
        session.armWaiter(db)
        if options.json { return try Output.json(FocusStatusReport(session, now: session.startTime)) }
        let purpose = session.tags.isEmpty ? "" : " for \(FocusTags.display(session.tags))"
        if session.openEnded { return print("Planted a seed\(purpose), counting up: `grove focus stop` plants its tree.") }
        let calendar = try db.calendar()
        let due = session.dueAt ?? session.startTime.addingTimeInterval(session.plannedDuration)
        print(
            "Planted a seed: \(DurationParser.clock(session.plannedDuration)) of focus\(session.tags.isEmpty ? "" : " for \(FocusTags.display(session.tags))"), done at \(calendar.wallText(due, today: calendar.localDay(of: session.startTime)))."
        )
    }
}
