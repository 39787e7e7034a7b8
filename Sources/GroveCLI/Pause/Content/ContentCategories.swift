import ArgumentParser
import Foundation
import GroveCore
import GroveStore

struct ContentCategories: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "categories", abstract: "Show or choose the categories pauses draw from.")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "Categories to use (all when none are given and --all is set).") var categories: [String] = []
    @Flag(name: .long, help: "Use every category.") var all = false

    func run() throws {
        let db = try options.open()
        var p = try db.pausePreferences()
        if all { p.selectedCategories = Set(MindfulnessContent.ContentCategory.allCases) }
        if !categories.isEmpty {
            p.selectedCategories = Set(try categories.map { try MindfulnessContent.ContentCategory(validating: $0, field: "selectedCategories") })
        }
        if all || !categories.isEmpty { try db.updatePausePreferences(p) }
        if options.json { return try Output.json(p.selectedCategories.sorted()) }
        print(MindfulnessContent.ContentCategory.allCases.map { (p.selectedCategories.contains($0) ? "● " : "○ ") + $0.rawValue }.joined(separator: "\n"))
    }
}
