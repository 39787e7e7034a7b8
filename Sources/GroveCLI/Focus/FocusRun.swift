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
    @OptionGroup var tagging: TagOptions

    func run() throws {
        let db = try options.open()
        let planned = try length.map { try TimeParsing.duration($0, field: "length") }
        try InteractiveFocus(db: db, traits: .current(), io: CLIEnvironment.current.io).run(length: planned, tags: try tagging.tags())
    }
}
