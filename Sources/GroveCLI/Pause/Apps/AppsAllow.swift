import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// `grove apps allow ID [--always | TAG…]`, `--off`: the allowlist while a tree grows.
struct AppsAllow: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "allow",
        abstract: "Let an app open during focus without withering the tree: always, or in sessions with these tags.",
        discussion: """
            While a focus session runs, a gated app waits behind the tree (opening it lets the tree wither). \
            An app allowed here opens through its gate as ever instead, and the tree keeps growing:
              grove apps allow spotify --always
              grove apps allow youtube lecture music     (only in sessions tagged lecture or music)
              grove apps allow youtube --off
            """)
    @OptionGroup var options: GlobalOptions
    @Argument(help: "The app's id.", completion: Completions.apps) var id: String
    @Argument(help: "Focus tags whose sessions allow it.") var tags: [String] = []
    @Flag(name: .long, help: "Allowed in every focus session.") var always = false
    @Flag(name: .long, help: "Never allowed: it waits behind the tree again.") var off = false

    func validate() throws {
        if off && (always || !tags.isEmpty) { throw ValidationError("--off takes neither --always nor tags") }
        if !off && !always && tags.isEmpty { throw ValidationError("Give --always, focus tags, or --off") }
        if always && !tags.isEmpty { throw ValidationError("--always allows every session: give it without tags") }
    }

    func run() throws {
        let app = try options.open().pause.setFocusAllowed(id: id, always: always, tags: off ? [] : tags)
        if options.json { return try Output.json(app) }
        print(
            app.focusAllowed.isEmpty
                ? "\(app.displayName) waits behind a growing tree again."
                : app.focusAllowed == [SocialApp.everySession]
                    ? "\(app.displayName) opens during every focus session without withering the tree."
                    : "\(app.displayName) opens without withering the tree in sessions tagged \(app.focusAllowed.joined(separator: ", "))."
        )
    }
}
