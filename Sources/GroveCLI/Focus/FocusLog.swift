import ArgumentParser
import Foundation
import GroveCore
import GroveStore

struct FocusLog: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log", abstract: "Record a session that happened (with pauses, or as abandoned).",
        discussion: """
            Times are HH:MM (today), YYYY-MM-DD HH:MM (in your configured zone) or ISO 8601 with an offset.
              grove focus log --start 09:00 --end 09:30 --pause 09:10-09:15
              grove focus log --start "2025-03-09 23:30" --end "2025-03-09 23:55" --zone America/New_York
            """)
    @OptionGroup var options: GlobalOptions
    @Option(name: .long, help: "When it started.") var start: String
    @Option(name: .long, help: "When it ended.") var end: String
    @Option(name: .long, help: ArgumentHelp("A pause, START-END (repeatable).", valueName: "start-end")) var pause: [String] = []
    @Flag(name: .long, help: "It was abandoned (no tree).") var abandoned = false
    @Option(name: .long, help: ArgumentHelp("Its planned length, e.g. 25m (abandoned sessions).", valueName: "duration")) var length:
        String?
    @Option(name: .long, help: ArgumentHelp("IANA zone it was lived in (default: configured).", valueName: "zone")) var zone: String?
    @OptionGroup var tagging: TagOptions

    func run() throws {
        let db = try options.openForFocus()
        var calendar = try db.calendar()
        if let zone { calendar = try ZonedCalendar(validating: zone, firstWeekday: calendar.firstWeekday) }
        let now = db.environment.now()
        let startDate = try TimeParsing.instant(start, field: "start", now: now, calendar: calendar)
        // A bare HH:MM for the end or a pause means the day the session started.
        let endDate = try TimeParsing.instant(end, field: "end", now: startDate, calendar: calendar)
        let pauses = try pause.map { text -> FocusRoom.LoggedPause in
            let parts = text.split(separator: "-", maxSplits: 1).map(String.init)
            // ISO instants contain "-": accept "START/END" as well.
            let pieces = text.contains("/") ? text.split(separator: "/").map(String.init) : parts
            guard pieces.count == 2 else { throw InvalidField("pause", "pause must be START-END, e.g. 09:10-09:15 (got \"\(text)\")") }
            return .init(
                start: try TimeParsing.instant(pieces[0], field: "pause", now: startDate, calendar: calendar),
                end: try TimeParsing.instant(pieces[1], field: "pause", now: startDate, calendar: calendar))
        }
        let session = try db.focus.log(
            start: startDate, end: endDate, pauses: pauses, abandoned: abandoned,
            plannedDuration: try length.map { try TimeParsing.duration($0, field: "length") }, timeZone: calendar.timeZone,
            tags: try tagging.tags())
        if options.json { return try Output.json(session) }
        print(
            "Logged a \(session.state.rawValue) session on \(session.endDay?.description ?? "?"): \(ForestStats.formatDuration(session.duration)) of focus\(session.state == .completed ? " 🌳" : "")\(session.tags.isEmpty ? "" : " for \(FocusTags.display(session.tags))") (id \(session.id.uuidString.prefix(8).lowercased()))."
        )
    }
}
