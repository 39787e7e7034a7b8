import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// `grove focus retag SESSION TAG…`: says (again) what a session was for.
struct FocusRetag: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retag", abstract: "Replace a session's tags (none given: remove them).",
        discussion: """
            SESSION is `current` (the running session), `last` (the one started last) or an id (its first 8+ characters).
              grove focus retag current essay
              grove focus retag last "deep work" reading
              grove focus retag 5e550000       # no tags any more
            """)
    @OptionGroup var options: GlobalOptions
    @Argument(help: ArgumentHelp("current, last, or the session's id (8+ characters).", valueName: "session")) var session: String
    @Argument(help: ArgumentHelp("Its tags (replacing the ones it has).", valueName: "tag"), completion: Completions.tags) var tags:
        [String] = []

    func run() throws {
        let tags = try FocusTags.normalized(tags)
        let db = try options.openForFocus()
        let target: FocusSession
        switch session.lowercased() {
        case "current":
            guard let current = try db.focus.current() else {
                throw InvalidField("session", "No session is running: give `last` or an id")
            }
            target = current
        case "last":
            guard let last = try db.focus.latest() else { throw InvalidField("session", "No focus sessions yet") }
            target = last
        default:
            target = try db.focus.session(idPrefix: session)
        }
        let retagged = try db.focus.retag(id: target.id, tags: tags)
        if options.json { return try Output.json(retagged) }
        let what = retagged.endDay.map { "the \(retagged.state.rawValue) session of \($0)" } ?? "the running session"
        print(tags.isEmpty ? "Removed the tags of \(what)." : "Tagged \(what): \(FocusTags.display(tags)).")
    }
}

/// `grove focus tags`: every tag used, most recent first, with what was done under it.
struct FocusTagList: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tags", abstract: "List the tags you used, most recent first, with their trees and time.")
    @OptionGroup var options: GlobalOptions

    func run() throws {
        let db = try options.openForFocus()
        let tags = try db.focus.tags()
        if options.json { return try Output.json(tags) }
        guard !tags.isEmpty else { return print("No tags yet. Say what a session is for with `grove focus --tag essay`.") }
        let width = min(40, tags.map(\.tag.count).max() ?? 0)
        for t in tags {
            print(
                "\(t.tag.padding(toLength: width, withPad: " ", startingAt: 0))  \(String(t.trees).leftPad(5)) 🌳  \(ForestStats.formatDuration(t.focusTime).leftPad(8))  last \(t.lastDay)"
            )
        }
    }
}
