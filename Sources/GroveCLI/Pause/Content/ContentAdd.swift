import ArgumentParser
import Foundation
import GroveCore
import GroveStore

struct ContentAdd: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add your own content.")
    @OptionGroup var options: GlobalOptions
    @Option(name: .long, help: "What kind of text.") var type: MindfulnessContent.ContentType
    @Option(name: .long, help: "Category.") var category: MindfulnessContent.ContentCategory
    @Option(name: .long, help: "The text (50–750 characters).") var text: String
    @Option(name: .long, help: "Attribution.") var author: String?
    @Option(name: .long, help: "Priority 1–10 (higher shows more often).") var priority: Int = MindfulnessContent.defaultPriority
    @Option(name: .long, help: "Id (default: generated).") var id: String?

    func run() throws {
        let db = try options.open()
        let item = try db.content.add(id: id, type: type, text: text, category: category, author: author, priority: priority)
        if options.json { return try Output.json(try db.content.item(id: item.id)) }
        print("Added \(item.id).")
    }
}
