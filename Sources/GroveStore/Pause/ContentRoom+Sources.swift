import Foundation
import GRDB
import GroveCore

/// What applying a content pack changed.
public struct ContentPackReport: Sendable, Equatable, Codable {
    /// Items new to the library.
    public var added = 0
    /// Items the source already had (text, category, priority… refreshed; counters kept).
    public var updated = 0
    /// Items the source dropped that pauses showed: kept for their history, never shown again.
    public var retired = 0
    /// Items the source dropped that no pause showed: deleted.
    public var removed = 0
    /// Items left out: the pack's own refusals and ids already used by your items, the bundled pack or another source.
    public var skipped: [ContentPack.Skipped] = []

    public init() {}
}

extension AppDatabase {

    /// Withdraws the items of `url` not in `kept`: retired when a pause refers to them, deleted otherwise.
    func withdraw(from url: String, keeping kept: Set<String>, into report: inout ContentPackReport, _ db: Database) throws {
        let current = try String.fetchAll(
            db.cachedStatement(sql: "SELECT id FROM mindfulness_content WHERE source_url = ? AND retired IS NOT 1"), arguments: [url])
        for id in current where !kept.contains(id) {
            if try AppDatabase.removeKeepingHistory(db, .content, id: id) { report.retired += 1 } else { report.removed += 1 }
        }
    }
}

/// A row of `content_source`.
struct ContentSourceRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "content_source"
    var source: ContentSource

    init(_ source: ContentSource) { self.source = source }

    init(row: Row) throws {
        let checked: Int64? = row["last_checked"], fetched: Int64? = row["last_fetched"]
        source = ContentSource(
            url: row["url"], addedAt: Date(groveMillis: row["added_at"]), etag: row["etag"],
            lastChecked: checked.map(Date.init(groveMillis:)), lastFetched: fetched.map(Date.init(groveMillis:)),
            itemCount: row["item_count"], lastError: row["last_error"])
    }

    func encode(to c: inout PersistenceContainer) {
        c["url"] = source.url; c["added_at"] = source.addedAt.groveMillis; c["etag"] = source.etag
        c["last_checked"] = source.lastChecked?.groveMillis; c["last_fetched"] = source.lastFetched?.groveMillis
        c["item_count"] = source.itemCount; c["last_error"] = source.lastError
    }
}

extension ContentRoom {
    /// The content sources, in the order they were added.
    public func sources() throws -> [ContentSource] {
        try writer.snapshotRead { db in try ContentSourceRecord.order(sql: "added_at, url").fetchAll(db).map(\.source) }
    }

    public func source(url: String) throws -> ContentSource? {
        try writer.snapshotRead { db in try ContentSourceRecord.fetchOne(db, key: url)?.source }
    }

    /// The sources whose pack is older than a day (or whose last check failed an hour ago): what a
    /// background refresh asks.
    public func sourcesDue() throws -> [ContentSource] {
        let now = environment.now()
        return try sources().filter { $0.isDue(at: now) }
    }

    /// Adds a source (checked, not yet fetched).
    @discardableResult
    public func addSource(url text: String) throws -> ContentSource {
        let url = try ContentSource.normalizedURL(text)
        let source = ContentSource(url: url, addedAt: environment.now())
        return try write { db in
            guard try !ContentSourceRecord.exists(db, key: url) else { throw PauseValidationError.duplicateContentSource(url) }
            try ContentSourceRecord(source).insert(db)
            return source
        }
    }

    /// Removes a source with its items: deleted when no pause showed them, retired (kept for the
    /// history, never shown) when one did.
    @discardableResult
    public func removeSource(url: String) throws -> ContentPackReport {
        try write { db in
            guard try ContentSourceRecord.exists(db, key: url) else { throw PauseValidationError.unknownContentSource(url) }
            var report = ContentPackReport()
            try database.withdraw(from: url, keeping: [], into: &report, db)
            // Retired items keep naming their source: added again, it finds them its own.
            try ContentSourceRecord.deleteOne(db, key: url)
            return report
        }
    }

    /// Installs a good pack from `url` in one transaction: its items added or refreshed (the counters
    /// that drive the rotation stay), the items it no longer carries withdrawn, the validator kept for
    /// the next `If-None-Match`, and `lastContentSync` set. An id that belongs to an item of yours,
    /// to the bundled pack or to another source is skipped, never overwritten.
    @discardableResult
    public func apply(_ pack: ContentPack, from url: String, etag: String?) throws -> ContentPackReport {
        let now = environment.now().groveMillis
        return try write { db in
            guard var source = try ContentSourceRecord.fetchOne(db, key: url)?.source else {
                throw PauseValidationError.unknownContentSource(url)
            }
            var report = ContentPackReport()
            report.skipped = pack.skipped
            var kept = Set<String>()
            let owner = try db.cachedStatement(sql: "SELECT source_url, is_bundled FROM mindfulness_content WHERE id = ?")
            let upsert = try db.cachedStatement(
                sql: """
                    INSERT INTO mindfulness_content (id, type, text, category, author, length, priority, is_bundled, last_used, times_shown, source_url, retired)
                    VALUES (?, ?, ?, ?, ?, ?, ?, 0, NULL, 0, ?, 0)
                    ON CONFLICT (id) DO UPDATE SET type = excluded.type, text = excluded.text, category = excluded.category,
                        author = excluded.author, length = excluded.length, priority = excluded.priority, retired = 0
                    """)
            for (index, item) in pack.items.enumerated() {
                if let row = try Row.fetchOne(owner, arguments: [item.id]) {
                    let itemSource: String? = row["source_url"]
                    guard itemSource == url else {
                        let whose =
                            (row["is_bundled"] as Bool)
                            ? "the bundled pack" : itemSource.map { "the source \($0)" } ?? "one of your own items"
                        report.skipped.append(.init(index: index, id: item.id, reason: "id: already used by \(whose)"))
                        continue
                    }
                    report.updated += 1
                } else {
                    report.added += 1
                }
                try upsert.execute(arguments: [
                    item.id, item.type.rawValue, item.text, item.category.rawValue, item.author, item.length, item.priority, url,
                ])
                kept.insert(item.id)
            }
            try database.withdraw(from: url, keeping: kept, into: &report, db)
            source.etag = etag
            source.lastChecked = Date(groveMillis: now)
            source.lastFetched = Date(groveMillis: now)
            source.lastError = nil
            source.itemCount = kept.count
            try ContentSourceRecord(source).update(db)
            try db.cachedExecute("UPDATE pause_preferences SET last_content_sync = ?", [now])
            return report
        }
    }

    /// Records a "304 Not Modified": the pack in use is fresh for another day.
    public func markUnchanged(url: String) throws {
        let now = environment.now().groveMillis
        try write { db in
            try db.cachedExecute(
                "UPDATE content_source SET last_checked = ?, last_fetched = ?, last_error = NULL WHERE url = ?", [now, now, url])
            guard db.changesCount == 1 else { throw PauseValidationError.unknownContentSource(url) }
            try db.cachedExecute("UPDATE pause_preferences SET last_content_sync = ?", [now])
        }
    }

    /// Records a failed check (offline, an HTTP error, a refused pack): the pack in use, or the
    /// bundled one, stays; the next try is in an hour.
    public func recordFailure(url: String, message: String) throws {
        let now = environment.now().groveMillis
        try write { db in
            try db.cachedExecute(
                "UPDATE content_source SET last_checked = ?, last_error = ? WHERE url = ?", [now, String(message.prefix(500)), url])
            guard db.changesCount == 1 else { throw PauseValidationError.unknownContentSource(url) }
        }
    }
}
