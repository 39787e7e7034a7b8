import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// `grove apps block ID SCHEDULE [--strict]`, `grove apps block ID --off`: block an app outright on a schedule.
struct AppsBlock: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "block",
        abstract: "Block an app outright on a schedule (e.g. \"mon-fri 09:00-12:00\"); --off removes the schedule.",
        discussion: """
            Days are mon…sun, ranges (mon-fri), lists (mon,wed), weekdays, weekends or daily; several windows \
            are joined with ";" ("weekdays 09:00-12:00; sat 10:00-11:00"); a window ending before it starts \
            runs past midnight. Times are your configured zone's. During a block the app cannot be proceeded \
            to; `grove pause ID --emergency` uses the week's one pass. --strict also keeps the schedule, the \
            gate and the app as they are until the block ends.
            """)
    @OptionGroup var options: GlobalOptions
    @Argument(help: "The app's id.", completion: Completions.apps) var id: String
    @Argument(help: "When it is blocked, e.g. \"mon-fri 09:00-12:00\".") var schedule: String?
    @Flag(name: .long, help: "Hold the schedule, the gate and the app while a block is in force.") var strict = false
    @Flag(name: .long, help: "Remove the schedule.") var off = false

    func validate() throws {
        if off == (schedule != nil) { throw ValidationError("Give a schedule such as \"mon-fri 09:00-12:00\", or --off") }
        if off && strict { throw ValidationError("--strict needs a schedule") }
    }

    func run() throws {
        let db = try options.open()
        let app = try db.pause.setBlock(id: id, schedule: off ? nil : schedule, strict: strict)
        if options.json { return try Output.json(app) }
        guard let block = app.blockSchedule else { return print("\(app.displayName) is no longer blocked on a schedule.") }
        let calendar = try db.calendar()
        let instant = db.environment.now(), now = calendar.localDay(of: instant)
        let state =
            try db.pause.activeBlock(appId: app.id).map { "blocked now, until \(calendar.wallText($0.end, today: now))" }
            ?? block.nextBlock(after: instant, calendar: calendar).map { "next block \(calendar.wallText($0.start, today: now))" } ?? ""
        print("\(app.displayName) is blocked \(block)\(app.blockStrict ? ", strictly" : "") (\(state)).")
        if !app.isEnabled { print("Its gate is off: switch it on (`grove apps enable \(app.id)`) for the block to hold.") }
    }
}
