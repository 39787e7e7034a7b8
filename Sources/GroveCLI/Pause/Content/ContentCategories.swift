import ArgumentParser
import Foundation
import GroveCore
import GroveStore

struct ContentCategories: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "categories", abstract: "Show or choose the categories pauses draw from.")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "Categories to use (all when none are given and --all is set).") var categories: [MindfulnessContent.ContentCategory] =
        []
    @Flag(name: .long, help: "Use every category.") var all = false

    func run() throws {
        let chosen: Set<MindfulnessContent.ContentCategory>? =
            all
            ? Set(MindfulnessContent.ContentCategory.allCases)
            : categories.isEmpty ? nil : Set(categories)
        let db = try options.open()
        let p = try chosen.map { chosen in try db.pause.changePreferences { $0.selectedCategories = chosen } } ?? db.pause.preferences()
        if options.json { return try Output.json(p.selectedCategories.sorted()) }
        print(
            MindfulnessContent.ContentCategory.allCases.map { (p.selectedCategories.contains($0) ? "● " : "○ ") + $0.rawValue }.joined(
                separator: "\n"))
    }
}
