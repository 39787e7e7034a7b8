import ArgumentParser
import Foundation
import GroveCore
import GroveStore

struct FocusStart: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "start", abstract: "Start a session in the background.")
    @OptionGroup var options: GlobalOptions
    @Option(name: .long, help: ArgumentHelp("Session length, e.g. 25m, 90s, 1h30m.", valueName: "duration"))
    var length: String?
    @OptionGroup var tagging: TagOptions

    func run() throws {
        let db = try options.open()
        let session = try db.focus.start(
            plannedDuration: try length.map { try TimeParsing.duration($0, field: "length") }, tags: try tagging.tags())
        session.armWaiter(db)
        if options.json { return try Output.json(FocusStatusReport(session, now: session.startTime)) }
        let calendar = try db.calendar()
        let due = session.dueAt ?? session.startTime.addingTimeInterval(session.plannedDuration)
        print(
            "Planted a seed: \(DurationParser.clock(session.plannedDuration)) of focus\(session.tags.isEmpty ? "" : " for \(FocusTags.display(session.tags))"), done at \(calendar.wallText(due, today: calendar.localDay(of: session.startTime)))."
        )
    }
}
