import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// `grove timer todo …`
struct TodoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "todo", abstract: "Edit a timer's checklist.",
        subcommands: [TodoAdd.self, TodoToggle.self, TodoRemove.self, TodoMove.self])
}
