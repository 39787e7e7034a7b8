import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// `grove timer start NAME`: counts a timer down in the background (the run lives in the store:
/// `grove now`, `grove timer runs`, the web and `grove serve`'s notification all see it).
struct TimerStart: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "start", abstract: "Start a timer in the background (again from its full length if it ran).")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "Timer name or id.", completion: Completions.timers) var timer: String

    func run() throws {
        let db = try options.open()
        let status = try db.timers.start(timerId: try TimerLookup.find(timer, in: db).id)
        status.armWaiter(db)
        if options.json { return try Output.json(status) }
        let due = status.dueAt.map { try? db.calendar().wallText($0, today: db.calendar().localDay(of: status.startedAt)) } ?? nil
        print("\(status.name) started: \(DurationParser.clock(status.remaining))\(due.map { ", done at \($0)" } ?? "").")
    }
}
