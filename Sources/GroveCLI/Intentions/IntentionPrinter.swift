import ArgumentParser
import Foundation
import GroveCore
import GroveStore

enum IntentionPrinter {
    static func print(_ items: [Intention], options: GlobalOptions) throws {
        if options.json { return try Output.json(items) }
        if items.isEmpty { return Swift.print("No intentions.") }
        for i in items { Swift.print("\(i.date)  \(i.scope.rawValue.padding(toLength: 5, withPad: " ", startingAt: 0))  \(i.text)  \(String(i.id.uuidString.prefix(8)).lowercased())") }
    }
}
