import Foundation
import GroveCore

/// How `grove intention list` and `search` show intentions: one line each, or JSON.
enum IntentionPrinter {
    /// Each labelled with its period ("Mon 23 Nov 2026", "Week of 23–29 Nov", "November 2026").
    static func show(_ items: [Intention], calendar: ZonedCalendar, json: Bool) throws {
        if json { return try Output.json(items) }
        if items.isEmpty { return print("No intentions.") }
        let labels = items.map { $0.scope.periodLabel(containing: $0.date, calendar: calendar) }
        let width = labels.map(\.count).max() ?? 0
        for (i, label) in zip(items, labels) {
            print(
                "\(label.padding(toLength: width, withPad: " ", startingAt: 0))  \(i.scope.rawValue.padding(toLength: 5, withPad: " ", startingAt: 0))  \(i.text)  \(String(i.id.uuidString.prefix(8)).lowercased())"
            )
        }
    }
}
