import ArgumentParser
import Foundation
import GroveCore
import GroveStore

struct ContentList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List content.")
    @OptionGroup var options: GlobalOptions
    @Option(name: .long, help: "Only this category.") var category: MindfulnessContent.ContentCategory?
    func run() throws {
        let db = try options.open()
        let items = try db.content.all(category: category)
        if options.json { return try Output.json(items) }
        for i in items {
            print(
                "\(i.id.padding(toLength: 22, withPad: " ", startingAt: 0)) \(i.type.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)) \(i.category.rawValue.padding(toLength: 13, withPad: " ", startingAt: 0)) p\(i.priority) ×\(i.timesShown)  \(i.text.prefix(50))…"
            )
        }
        print("\(items.count) items")
    }
}
