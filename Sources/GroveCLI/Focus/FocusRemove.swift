import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// `grove focus rm ID`: takes back a session recorded by mistake (a wrong `log`, a double entry).
struct FocusRemove: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm", abstract: "Delete a recorded session (its tree and minutes go with it).",
        discussion: """
            ID is the session's id or its first 8 or more characters, as `grove focus log` and `grove forest --json` show it,
            or `last` (the session started last: undoes a `grove focus log` of the latest time).
            """)
    @OptionGroup var options: GlobalOptions
    @Argument(help: "The session's id (or its first 8+ characters), or last.") var id: String

    func run() throws {
        let db = try options.openForFocus()
        let session: FocusSession
        if id.lowercased() == "last" {
            guard let last = try db.focus.latest() else { throw InvalidField("id", "No focus sessions yet") }
            session = last
        } else {
            session = try db.focus.session(idPrefix: id)
        }
        try db.focus.delete(id: session.id)
        if options.json { return try Output.json(session) }
        print(
            "Removed the \(session.state.rawValue) session of \(session.endDay?.description ?? "?") (\(ForestStats.formatDuration(session.duration)) of focus)."
        )
    }
}
