import ArgumentParser
import Foundation
import GroveCore
import GroveStore

struct ContentAdd: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add your own content.")
    @OptionGroup var options: GlobalOptions
    @Option(name: .long, help: "quote, excerpt or prompt.") var type: String
    @Option(name: .long, help: "Category.") var category: String
    @Option(name: .long, help: "The text (50–750 characters).") var text: String
    @Option(name: .long, help: "Attribution.") var author: String?
    @Option(name: .long, help: "Priority 1–10 (higher shows more often).") var priority: Int = MindfulnessContent.defaultPriority
    @Option(name: .long, help: "Id (default: generated).") var id: String?

    func run() throws {
        guard let t = MindfulnessContent.ContentType(rawValue: type) else { throw InvalidField("type", "type must be quote, excerpt or prompt (got \"\(type)\")") }
        let c = try MindfulnessContent.ContentCategory(validating: category)
        let db = try options.open()
        let item = MindfulnessContent(id: id ?? "user-\(db.environment.uuid().uuidString.prefix(8).lowercased())", type: t, text: text,
                                      category: c, author: author, priority: priority)
        try db.saveContents([item])
        if options.json { return try Output.json(try db.content(id: item.id)) }
        print("Added \(item.id).")
    }
}
