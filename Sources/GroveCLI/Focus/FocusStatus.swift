import ArgumentParser
import Foundation
import GroveCore
import GroveStore

struct FocusStatus: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "Show the running session, or the last one.")
    @OptionGroup var options: GlobalOptions

    func run() throws { try Self.run(options.plain) }

    /// The status, for whichever parse made the command.
    static func run(_ options: PlainOptions) throws {
        let db = try options.openForFocus()
        // One read for the running session or the break (the break timed by its own clock reading).
        let status = try db.focus.status()
        let session = try status.session ?? db.focus.latest()
        let now = try session.map { try db.focus.now(for: $0) } ?? db.environment.now()
        let pause = status.break
        var report = FocusStatusReport(session, now: now)
        report.break = pause
        if options.json { return try Output.json(report) }
        guard let session else { return print("No focus sessions yet. Start one with `grove focus`.") }
        let calendar = try db.calendar()
        let today = calendar.localDay(of: now)
        switch session.state {
        case .active, .paused:
            for line in FocusScreen.lines(session, now: now, traits: .plain).prefix(3) { print(line) }
            if session.clockUncertain { print("(The machine restarted during this session; its time is measured by the wall clock.)") }
        case .completed:
            let end = session.endTime ?? session.startTime
            print(
                "No session running. Last: completed at \(calendar.wallText(end, today: today)), \(ForestStats.formatDuration(session.duration)) of focus 🌳"
            )
        case .abandoned:
            print("No session running. Last: abandoned at \(calendar.wallText(session.endTime ?? session.startTime, today: today)).")
        }
        if !session.tags.isEmpty { print("For: \(FocusTags.display(session.tags))") }
        if let pause {
            print(
                "On a \(pause.kind == .long ? "long" : "short") break: \(DurationParser.clock(pause.remaining)) left (`grove focus break --skip` ends it; `grove focus` starts the next session)."
            )
        }
    }
}
