import Foundation
import GroveCore
import GroveStore

// The reference the SQLite repository is checked against: seed 004's semantics written the plainest
// way, over an array. It lives with the tests because nothing in the product uses it.

/// Seed 004's intention repository over a dictionary.
final class InMemoryIntentionRepository: IntentionRepository, @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [UUID: Intention] = [:]
    private let now: @Sendable () -> Date
    private let calendar: ZonedCalendar

    init(now: @escaping @Sendable () -> Date, calendar: ZonedCalendar) {
        self.now = now
        self.calendar = calendar
    }

    private var all: [Intention] { lock.withLock { Array(storage.values) } }
    private func newestFirst(_ items: [Intention]) -> [Intention] {
        items.sorted { ($0.date, $0.updatedAt, $0.id.uuidString) > ($1.date, $1.updatedAt, $1.id.uuidString) }
    }

    func create(_ intention: Intention) throws {
        try intention.validate()
        try lock.withLock {
            guard storage[intention.id] == nil else { throw InvalidField("id", "An intention with id \(intention.id) already exists") }
            storage[intention.id] = intention
        }
    }
    func getAll() throws -> [Intention] { newestFirst(all) }
    func update(_ intention: Intention) throws {
        var updated = intention
        updated.updatedAt = now()
        try updated.validate()
        try lock.withLock {
            guard storage[intention.id] != nil else { throw NotFoundError("intention", intention.id.uuidString) }
            storage[intention.id] = updated
        }
    }
    func delete(_ intention: Intention) throws {
        try lock.withLock {
            guard storage.removeValue(forKey: intention.id) != nil else { throw NotFoundError("intention", intention.id.uuidString) }
        }
    }
    func getIntention(for date: LocalDay, scope: IntentionScope) throws -> Intention? {
        IntentionHierarchy.current(from: all.filter { $0.scope == scope }, on: date, calendar: calendar)
    }
    func getCurrentDisplayIntention() throws -> Intention? {
        IntentionHierarchy.current(from: all, on: calendar.localDay(of: now()), calendar: calendar)
    }
    func search(query: String) throws -> [Intention] {
        let q = query.trimmingCharacters(in: .whitespaces)
        guard !q.isEmpty else { return [] }
        return newestFirst(all.filter { $0.matches(query: q) })
    }
    func getIntentions(from: LocalDay, to: LocalDay) throws -> [Intention] { newestFirst(all.filter { $0.date >= from && $0.date <= to }) }
    func getIntentions(scope: IntentionScope) throws -> [Intention] { newestFirst(all.filter { $0.scope == scope }) }
    func getIntention(byId id: UUID) throws -> Intention? { lock.withLock { storage[id] } }
}
