import ArgumentParser
import Foundation
import GroveCore
import GroveStore

struct FocusConfig: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config", abstract: "Show or change session and break lengths.",
        discussion: "  grove focus config --length 50m --short-break 10m --long-break 30m --long-break-every 3")
    @OptionGroup var options: GlobalOptions
    @Option(name: .long, help: "Focus length, 1m to 4h.") var length: String?
    @Option(name: .customLong("short-break"), help: "Short break length.") var shortBreak: String?
    @Option(name: .customLong("long-break"), help: "Long break length.") var longBreak: String?
    @Option(name: .customLong("long-break-every"), help: "A long break after every N sessions.") var interval: Int?

    func run() throws {
        let focus = try length.map { try TimeParsing.duration($0, field: "length") }
        let short = try shortBreak.map { try TimeParsing.duration($0, field: "short-break") }
        let long = try longBreak.map { try TimeParsing.duration($0, field: "long-break") }
        let db = try options.openForFocus()
        // One transaction, changing only the lengths given: a setting changed meanwhile elsewhere is kept.
        let changes = focus != nil || short != nil || long != nil || interval != nil
        let p =
            try changes
            ? db.focus.changePreferences { p in
                if let focus { p.focusDuration = focus }
                if let short { p.shortBreakDuration = short }
                if let long { p.longBreakDuration = long }
                if let interval { p.longBreakInterval = interval }
            } : db.focus.preferences()
        if options.json { return try Output.json(p) }
        print(
            "Focus \(DurationParser.clock(p.focusDuration)), short break \(DurationParser.clock(p.shortBreakDuration)), long break \(DurationParser.clock(p.longBreakDuration)) every \(p.longBreakInterval) sessions."
        )
    }
}
