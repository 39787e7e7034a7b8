import ArgumentParser
import Foundation
import GroveCore
import GroveStore

struct FocusConfig: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config", abstract: "Show or change session and break lengths.",
        discussion: "  grove focus config --length 50m --short-break 10m --long-break 30m --long-break-every 3")
    @OptionGroup var options: GlobalOptions
    @Option(name: .long, help: "Focus length.") var length: String?
    @Option(name: .customLong("short-break"), help: "Short break length.") var shortBreak: String?
    @Option(name: .customLong("long-break"), help: "Long break length.") var longBreak: String?
    @Option(name: .customLong("long-break-every"), help: "A long break after every N sessions.") var interval: Int?

    func run() throws {
        let db = try options.open()
        var p = try db.focusPreferences()
        if let length { p.focusDuration = try TimeParsing.duration(length, field: "length") }
        if let shortBreak { p.shortBreakDuration = try TimeParsing.duration(shortBreak, field: "shortBreakDuration") }
        if let longBreak { p.longBreakDuration = try TimeParsing.duration(longBreak, field: "longBreakDuration") }
        if let interval { p.longBreakInterval = interval }
        if length != nil || shortBreak != nil || longBreak != nil || interval != nil { try db.updateFocusPreferences(p) }
        if options.json { return try Output.json(p) }
        print("Focus \(DurationParser.clock(p.focusDuration)), short break \(DurationParser.clock(p.shortBreakDuration)), long break \(DurationParser.clock(p.longBreakDuration)) every \(p.longBreakInterval) sessions.")
    }
}
