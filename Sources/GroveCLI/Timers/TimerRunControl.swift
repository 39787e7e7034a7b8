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

/// `grove timer resume NAME`
struct TimerResume: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "resume", abstract: "Resume a paused timer.")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "Timer name or id.", completion: Completions.timers) var timer: String

    func run() throws {
        let db = try options.open()
        let status = try db.timers.resume(timerId: try TimerLookup.find(timer, in: db).id)
        status.armWaiter(db)
        if options.json { return try Output.json(status) }
        print("\(status.name) running: \(DurationParser.clock(status.remaining)) left.")
    }
}

/// `grove timer stop NAME`
struct TimerStop: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stop", abstract: "Stop a timer's countdown.")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "Timer name or id.", completion: Completions.timers) var timer: String

    func run() throws {
        let db = try options.open()
        let found = try TimerLookup.find(timer, in: db)
        guard try db.timers.stop(timerId: found.id) else { throw TimerRunError.noRun(found.name) }
        if options.json { return try Output.json(["stopped": found.id.uuidString]) }
        print("\(found.name) stopped.")
    }
}

/// `grove timer runs`: every timer counting down, paused or done.
struct TimerRuns: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "runs", abstract: "Show the timers counting down, paused or done.")
    @OptionGroup var options: GlobalOptions

    func run() throws {
        let db = try options.open()
        let runs = try db.timers.runs()
        if options.json { return try Output.json(runs) }
        guard !runs.isEmpty else { return print("No timer is counting down. Start one: grove timer start NAME") }
        for run in runs { print(TimerText.run(run)) }
    }
}

/// `grove timer samples`: seed 001's sample timers (also offered by `grove setup`).
struct TimerSamples: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "samples", abstract: "Add the sample timers (a workout, a study session, a coffee break, a meditation).")
    @OptionGroup var options: GlobalOptions

    func run() throws {
        let db = try options.open()
        let added = try db.timers.loadSamples()
        if options.json { return try Output.json(["added": added]) }
        print(added == 0 ? "The sample timers are already there." : "Added \(added) sample timer\(added == 1 ? "" : "s"): grove timer list")
    }
}
