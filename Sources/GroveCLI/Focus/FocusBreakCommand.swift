import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// `grove focus break`: the break after the last tree, shown or skipped.
struct FocusBreakCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "break", abstract: "Show the break after the last tree, or skip it.",
        discussion: """
            A break begins when a tree is planted (short, or long every few trees: `grove focus config`) \
            and is the same in every face: this terminal, the web page, `grove now`. Starting the next \
            session ends it.
              grove focus break           # how long is left
              grove focus break --skip    # ready now
            """)
    @OptionGroup var options: GlobalOptions
    @Flag(name: .long, help: "End the break now.") var skip = false

    func run() throws {
        let db = try options.openForFocus()
        if skip {
            let skipped = try db.focus.skipBreak()
            if options.json { return try Output.json(skipped) }
            return print("Break skipped. Start the next session with `grove focus`.")
        }
        let status = try db.focus.status()
        if options.json { return try Output.json(status.break) }
        guard let pause = status.break else {
            return print(
                status.session == nil ? "No break running. Start a session with `grove focus`." : "A session is running: no break now.")
        }
        print(
            "\(pause.kind == .long ? "Long" : "Short") break: \(DurationParser.clock(pause.remaining)) left. `grove focus break --skip` ends it."
        )
    }
}
