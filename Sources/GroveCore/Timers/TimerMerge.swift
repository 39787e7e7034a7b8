import Foundation

/// Seed 001's "updatedAt wins", made safe: the rule the timer sync messages are applied by.
public enum TimerMerge {
    /// The timer after `incoming` (a whole timer from another device) meets `existing`, or nil when
    /// the message changes nothing because the timer here is as new or newer.
    ///
    /// To-dos merge one by one: the newer `updatedAt` of each wins; a to-do missing from the message
    /// survives when it changed here after the message was written (it was added or edited since).
    public static func merge(existing: NamedTimer?, incoming: NamedTimer) -> NamedTimer? {
        guard let existing else { return incoming }
        guard incoming.updatedAt > existing.updatedAt else { return nil }
        var merged = incoming
        let local = Dictionary(existing.todoItems.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        merged.todoItems = incoming.todoItems.map { item in
            guard let mine = local[item.id], mine.updatedAt > item.updatedAt else { return item }
            return mine
        }
        let carried = Set(incoming.todoItems.map(\.id))
        merged.todoItems += existing.todoItems.filter { !carried.contains($0.id) && $0.updatedAt > incoming.updatedAt }
        // One order without gaps: by the merged sort orders, ties by id.
        merged.todoItems.sort { ($0.sortOrder, $0.id.uuidString) < ($1.sortOrder, $1.id.uuidString) }
        for index in merged.todoItems.indices { merged.todoItems[index].sortOrder = index }
        return merged
    }
}
