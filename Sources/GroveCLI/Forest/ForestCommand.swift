import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// `grove forest`: every tree, newest first.
struct ForestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forest", abstract: "Show your forest: one tree per completed session, newest first.",
        discussion: "  grove forest\n  grove forest --limit 50 --json")
    @OptionGroup var options: GlobalOptions
    @Option(name: .long, help: "Show at most this many trees.") var limit: Int?

    func run() throws {
        if let limit, limit < 1 { throw InvalidField("limit", "limit must be at least 1") }
        let db = try options.open()
        let trees = try db.completedSessions(limit: limit)
        if options.json { return try Output.json(trees) }
        guard !trees.isEmpty else { return print("Your forest is empty. Plant the first tree with `grove focus`.") }
        print(ForestGrid.render(trees, width: TerminalTraits.current().width))
        let total = try db.forestStats().totalTrees
        print("\(total) tree\(total == 1 ? "" : "s")\(limit.map { $0 < total ? " (showing \($0))" : "" } ?? "")")
    }
}
