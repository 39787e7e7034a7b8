import Foundation
import GRDB
import GroveCore

extension ContentRoom {
    /// The content library, optionally one category, by id (items a content source withdrew are
    /// kept for the pauses that showed them, and left out here).
    public func all(category: MindfulnessContent.ContentCategory? = nil) throws -> [MindfulnessContent] {
        try writer.snapshotRead { db in
            var request = ContentRecord.filter(sql: "retired IS NOT 1").order(sql: "id")
            if let category { request = request.filter(sql: "category = ?", arguments: [category.rawValue]) }
            return try request.fetchAll(db).map(\.content)
        }
    }

    public func item(id: String) throws -> MindfulnessContent? {
        try writer.snapshotRead { db in try ContentRecord.fetchOne(db, key: id)?.content }
    }

    /// Adds or replaces content items (a user's own, or a content pack), all or none.
    public func save(_ items: [MindfulnessContent]) throws {
        let normalized = items.map { item -> MindfulnessContent in
            var item = item
            item.text = item.text.trimmingCharacters(in: .whitespacesAndNewlines)
            return item
        }
        for item in normalized { try item.validate() }
        try write { db in for item in normalized { try ContentRecord(item).upsert(db) } }
    }

    /// Removes a content item.
    ///
    /// History is never deleted as a side effect: an item a pause showed is retired instead (kept for
    /// that pause and its day's statistics, never shown again), as a content pack retires what it drops.
    /// Returns whether the item was retired rather than deleted.
    @discardableResult
    public func delete(id: String) throws -> Bool {
        try write { db in
            guard try db.cachedExists("SELECT 1 FROM mindfulness_content WHERE id = ? AND retired IS NOT 1", [id]) else {
                throw PauseValidationError.unknownContent(id)
            }
            return try AppDatabase.removeKeepingHistory(db, .content, id: id)
        }
    }
}
