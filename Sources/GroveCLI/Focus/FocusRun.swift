import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// `grove focus [run]`: the live session.
struct FocusRun: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "run", abstract: "Run a live session in this terminal (the default).")

    @OptionGroup var options: GlobalOptions

    @Option(name: .long, help: ArgumentHelp("Session length, e.g. 25m, 90s, 1h30m.", valueName: "duration"))
    var length: String?
    @Flag(name: .long, help: "Open-ended: count up until you stop it ([s]); the tree grows by the time spent.")
    var open = false
    @OptionGroup var tagging: TagOptions

    func validate() throws {
        if open, length != nil { throw ValidationError("--open and --length cannot be combined: an open session has no length") }
    }

    func run() throws {
        let db = try options.openForFocus()
        let planned = try length.map { try TimeParsing.duration($0, field: "length") }
        try InteractiveFocus(db: db, traits: .current(), io: CLIEnvironment.current.io).run(
            length: planned, openEnded: open, tags: try tagging.tags())
    }
}
