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

    public func create(_ intention: Intention) throws { try database.intentions.create(intention) }
    public func getAll() throws -> [Intention] { try database.intentions.all() }
    public func update(_ intention: Intention) throws { try database.intentions.update(intention) }
    public func delete(_ intention: Intention) throws { try database.intentions.delete(id: intention.id) }
    public func getIntention(for date: LocalDay, scope: IntentionScope) throws -> Intention? {
        try database.intentions.find(for: date, scope: scope)
    }
    public func getCurrentDisplayIntention() throws -> Intention? { try database.intentions.current() }
    public func search(query: String) throws -> [Intention] { try database.intentions.search(query) }
    public func getIntentions(from: LocalDay, to: LocalDay) throws -> [Intention] { try database.intentions.all(from: from, to: to) }
    public func getIntentions(scope: IntentionScope) throws -> [Intention] { try database.intentions.all(scope: scope) }
    public func getIntention(byId id: UUID) throws -> Intention? { try database.intentions.find(id: id) }
}
