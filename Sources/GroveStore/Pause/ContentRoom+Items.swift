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

    /// Adds a person's own item, as every face does (`grove content add`, `POST /pause/content`, the
    /// web's form): its `id` given, or made (`user-1a2b3c4d`). An id already in use is refused by
    /// name: adding never replaces another item, bundled or a pack's.
    @discardableResult
    public func add(
        id: String? = nil, type: MindfulnessContent.ContentType, text: String, category: MindfulnessContent.ContentCategory,
        author: String? = nil, priority: Int? = nil
    ) throws -> MindfulnessContent {
        let id = id.map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
        var item = MindfulnessContent(
            id: id ?? "user-\(environment.uuid().uuidString.prefix(8).lowercased())", type: type,
            text: text.trimmingCharacters(in: .whitespacesAndNewlines), category: category,
            author: author.flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 },
            priority: priority ?? MindfulnessContent.defaultPriority)
        item.isBundled = false
        try item.validate()
        return try write { db in
            guard try !db.cachedExists("SELECT 1 FROM mindfulness_content WHERE id = ?", [item.id]) else {
                throw InvalidField("id", "An item with id \(item.id.quotedForMessage) already exists: choose another id, or leave it out")
            }
            try ContentRecord(item).insert(db)
            return item
        }
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
            // A bundled item is always retired, never deleted: the next bundled pack would bring a deleted
            // one back, and the person removed it for good.
            if try db.cachedExists("SELECT 1 FROM mindfulness_content WHERE id = ? AND is_bundled = 1", [id]) {
                try db.cachedExecute("UPDATE mindfulness_content SET retired = 1 WHERE id = ?", [id])
                return true
            }
            return try AppDatabase.removeKeepingHistory(db, .content, id: id)
        }
    }
}
