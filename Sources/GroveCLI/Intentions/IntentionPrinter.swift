import Foundation
import GroveCore

/// How `grove intention list` and `search` show intentions: one line each, or JSON.
enum IntentionPrinter {
    static func show(_ items: [Intention], options: GlobalOptions) throws {
        if options.json { return try Output.json(items) }
        if items.isEmpty { return print("No intentions.") }
        for i in items { print("\(i.date)  \(i.scope.rawValue.padding(toLength: 5, withPad: " ", startingAt: 0))  \(i.text)  \(String(i.id.uuidString.prefix(8)).lowercased())") }
    }
}
