import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// Finds a timer by id, id prefix or name.
enum TimerLookup {
    static func find(_ reference: String, in db: AppDatabase) throws -> NamedTimer {
        let timers = try db.timers.all()
        if let id = UUID(uuidString: reference), let match = timers.first(where: { $0.id == id }) { return match }
        let byName = timers.filter { $0.name.caseInsensitiveCompare(reference) == .orderedSame }
        if byName.count == 1 { return byName[0] }
        let byPrefix = reference.count >= 4 ? timers.filter { $0.id.uuidString.lowercased().hasPrefix(reference.lowercased()) } : []
        if byPrefix.count == 1 { return byPrefix[0] }
        if byName.count + byPrefix.count > 1 { throw InvalidField("timer", "\"\(reference)\" matches several timers; use its id") }
        throw NotFoundError("timer", reference)
    }

    /// A to-do by its number in the checklist (from 1) or the start of its id.
    static func todo(_ reference: String, in timer: NamedTimer) throws -> TodoItem {
        if let n = Int(reference) {
            guard (1...max(1, timer.todoItems.count)).contains(n), n <= timer.todoItems.count else {
                throw InvalidField(
                    "todo",
                    "\(timer.name) has \(timer.todoItems.count) to-do\(timer.todoItems.count == 1 ? "" : "s"); \(n) is not one of them")
            }
            return timer.todoItems[n - 1]
        }
        let matches = timer.todoItems.filter { $0.id.uuidString.lowercased().hasPrefix(reference.lowercased()) }
        guard matches.count == 1 else { throw NotFoundError("to-do", reference) }
        return matches[0]
    }
}
