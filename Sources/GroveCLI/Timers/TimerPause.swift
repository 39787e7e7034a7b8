import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// `grove timer pause NAME`
struct TimerPause: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "pause", abstract: "Pause a running timer.")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "Timer name or id.", completion: Completions.timers) var timer: String

    func run() throws {
        let db = try options.open()
        let status = try db.timers.pause(timerId: try TimerLookup.find(timer, in: db).id)
        if options.json { return try Output.json(status) }
        print("\(status.name) paused with \(DurationParser.clock(status.remaining)) left.")
    }
}
