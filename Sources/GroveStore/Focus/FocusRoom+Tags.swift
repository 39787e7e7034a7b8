import Foundation
import GRDB
import GroveCore

/// One tag with what was done under it (`grove focus tags`, the web's tag picker).
public struct FocusTagSummary: Sendable, Codable, Equatable {
    public var tag: String
    public var trees: Int
    public var abandoned: Int
    /// Focus time of its completed sessions, in seconds.
    public var focusTime: TimeInterval
    /// The last day a session carrying it ended.
    public var lastDay: LocalDay

    public init(tag: String, trees: Int, abandoned: Int, focusTime: TimeInterval, lastDay: LocalDay) {
        self.tag = tag
        self.trees = trees
        self.abandoned = abandoned
        self.focusTime = focusTime
        self.lastDay = lastDay
    }
}

/// Where per-day totals come from: `focus_day` for every session, `focus_day_tag` for one tag's.
/// Both have the same columns, so every query over days reads either.
struct DayTotals {
    let tag: String?

    /// Checks the tag by the tag rules (a filter that can match nothing is a mistake worth naming).
    init(tag: String?) throws {
        if let tag { try FocusTags.check(tag) }
        self.tag = tag
    }

    var table: String { tag == nil ? "focus_day" : "focus_day_tag" }

    /// The condition on the tag, bound to numbered parameter `parameter` (always true for all sessions,
    /// where the parameter is NULL). Spellings fold as SQLite's `lower()` does (ASCII, as
    /// `FocusTags.folded`): two devices' "Reading" and "reading" are one tag.
    func condition(parameter: Int) -> String { tag == nil ? "?\(parameter) IS NULL" : "lower(tag) = lower(?\(parameter))" }
}

extension FocusRoom {
    /// Replaces the tags of one session, open or finished (its days' per-tag totals follow by trigger).
    @discardableResult
    public func retag(id: UUID, tags: [String]) throws -> FocusSession {
        let tags = try FocusTags.normalized(tags)
        return try write { db in
            guard try db.cachedExists("SELECT 1 FROM focus_session WHERE id = ?", [id.uuidString]) else {
                throw NotFoundError("focus session", id.uuidString)
            }
            let tags = try FocusTagSpelling.existing(db, tags)
            try db.cachedExecute("UPDATE focus_session SET tags = ? WHERE id = ?", [TagsColumn.encode(tags), id.uuidString])
            guard let record = try FocusSessionRecord.fetchOne(db, key: id.uuidString) else {
                throw NotFoundError("focus session", id.uuidString)
            }
            return try record.model()
        }
    }

    /// Every tag used, most recently used first, with its totals: read from the per-day-per-tag
    /// totals (one row per tag and day), never from the sessions.
    public func tags(limit: Int = 200) throws -> [FocusTagSummary] {
        guard (1...FocusRoom.maxPageSize).contains(limit) else {
            throw InvalidField("limit", "limit must be between 1 and \(FocusRoom.maxPageSize)")
        }
        try settle()
        return try writer.snapshotRead { db in
            try db.cachedRows(
                """
                SELECT min(tag), sum(trees), sum(abandoned), sum(focus_ms), max(day) FROM focus_day_tag
                GROUP BY lower(tag) ORDER BY max(day) DESC, min(tag) LIMIT ?
                """, [limit]
            ).compactMap { row in
                guard let day = LocalDay(row[4] as String) else { return nil }
                return FocusTagSummary(
                    tag: row[0], trees: row[1], abandoned: row[2], focusTime: TimeInterval(groveMillis: row[3]), lastDay: day)
            }
        }
    }

    /// Per-tag totals of the days `from`…`to` inclusive (the weekly review), most focus first.
    public func tagTotals(from: LocalDay, to: LocalDay) throws -> [FocusTagSummary] {
        try writer.snapshotRead { db in
            try db.cachedRows(
                """
                SELECT min(tag), sum(trees), sum(abandoned), sum(focus_ms), max(day) FROM focus_day_tag INDEXED BY focus_day_tag_day
                WHERE day BETWEEN ? AND ? GROUP BY lower(tag) ORDER BY sum(focus_ms) DESC, min(tag)
                """, [from.description, to.description]
            ).compactMap { row in
                guard let day = LocalDay(row[4] as String) else { return nil }
                return FocusTagSummary(
                    tag: row[0], trees: row[1], abandoned: row[2], focusTime: TimeInterval(groveMillis: row[3]), lastDay: day)
            }
        }
    }
}
