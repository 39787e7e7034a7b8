import Foundation
import GroveCore

/// Seed 004's intention repository: the same methods, names and semantics.
public protocol IntentionRepository: Sendable {
    /// Creates a new intention (validated; the id must be new).
    func create(_ intention: Intention) throws
    /// All intentions, newest date first.
    func getAll() throws -> [Intention]
    /// Updates an existing intention (validated; stamps `updatedAt`).
    func update(_ intention: Intention) throws
    /// Deletes an intention.
    func delete(_ intention: Intention) throws
    /// The intention of `scope` whose period contains `date` (most recently updated if several).
    func getIntention(for date: LocalDay, scope: IntentionScope) throws -> Intention?
    /// Today's intention by the day > week > month hierarchy.
    func getCurrentDisplayIntention() throws -> Intention?
    /// Intentions whose text contains `query`, case-insensitively, newest first.
    func search(query: String) throws -> [Intention]
    /// Intentions dated between `from` and `to`, inclusive, newest first.
    func getIntentions(from: LocalDay, to: LocalDay) throws -> [Intention]
    /// All intentions of one scope, newest first.
    func getIntentions(scope: IntentionScope) throws -> [Intention]
    /// One intention by id.
    func getIntention(byId id: UUID) throws -> Intention?
}

/// The SQLite implementation, over `AppDatabase`.
public struct SQLiteIntentionRepository: IntentionRepository {
    public let database: AppDatabase
    public init(database: AppDatabase) { self.database = database }

    public func create(_ intention: Intention) throws { try database.createIntention(intention) }
    public func getAll() throws -> [Intention] { try database.intentions() }
    public func update(_ intention: Intention) throws { try database.updateIntention(intention) }
    public func delete(_ intention: Intention) throws { try database.deleteIntention(id: intention.id) }
    public func getIntention(for date: LocalDay, scope: IntentionScope) throws -> Intention? { try database.intention(for: date, scope: scope) }
    public func getCurrentDisplayIntention() throws -> Intention? { try database.currentIntention() }
    public func search(query: String) throws -> [Intention] { try database.searchIntentions(query) }
    public func getIntentions(from: LocalDay, to: LocalDay) throws -> [Intention] { try database.intentions(from: from, to: to) }
    public func getIntentions(scope: IntentionScope) throws -> [Intention] { try database.intentions(scope: scope) }
    public func getIntention(byId id: UUID) throws -> Intention? { try database.intention(id: id) }
}

/// An in-memory implementation with the same semantics: previews, tests of the faces, and the
/// reference the SQLite one is checked against.
public final class InMemoryIntentionRepository: IntentionRepository, @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [UUID: Intention] = [:]
    private let now: @Sendable () -> Date
    private let calendar: ZonedCalendar

    public init(now: @escaping @Sendable () -> Date, calendar: ZonedCalendar) {
        self.now = now
        self.calendar = calendar
    }

    private var all: [Intention] { lock.withLock { Array(storage.values) } }
    private func newestFirst(_ items: [Intention]) -> [Intention] {
        items.sorted { ($0.date, $0.updatedAt, $0.id.uuidString) > ($1.date, $1.updatedAt, $1.id.uuidString) }
    }

    public func create(_ intention: Intention) throws {
        try intention.validate()
        try lock.withLock {
            guard storage[intention.id] == nil else { throw InvalidField("id", "An intention with id \(intention.id) already exists") }
            storage[intention.id] = intention
        }
    }
    public func getAll() throws -> [Intention] { newestFirst(all) }
    public func update(_ intention: Intention) throws {
        var updated = intention
        updated.updatedAt = now()
        try updated.validate()
        try lock.withLock {
            guard storage[intention.id] != nil else { throw NotFoundError("intention", intention.id.uuidString) }
            storage[intention.id] = updated
        }
    }
    public func delete(_ intention: Intention) throws {
        try lock.withLock {
            guard storage.removeValue(forKey: intention.id) != nil else { throw NotFoundError("intention", intention.id.uuidString) }
        }
    }
    public func getIntention(for date: LocalDay, scope: IntentionScope) throws -> Intention? {
        IntentionHierarchy.current(from: all.filter { $0.scope == scope }, on: date, calendar: calendar)
    }
    public func getCurrentDisplayIntention() throws -> Intention? {
        IntentionHierarchy.current(from: all, on: calendar.localDay(of: now()), calendar: calendar)
    }
    public func search(query: String) throws -> [Intention] {
        let q = query.trimmingCharacters(in: .whitespaces)
        guard !q.isEmpty else { return [] }
        return newestFirst(all.filter { $0.matches(query: q) })
    }
    public func getIntentions(from: LocalDay, to: LocalDay) throws -> [Intention] { newestFirst(all.filter { $0.date >= from && $0.date <= to }) }
    public func getIntentions(scope: IntentionScope) throws -> [Intention] { newestFirst(all.filter { $0.scope == scope }) }
    public func getIntention(byId id: UUID) throws -> Intention? { lock.withLock { storage[id] } }
}
