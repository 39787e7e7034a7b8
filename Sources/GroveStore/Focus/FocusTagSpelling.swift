import GRDB
import GroveCore

/// One tag, one spelling: a tag typed as "reading" after sessions carried "Reading" is stored as
/// "Reading", so that the tag list, the review and the stats count them as one. The earlier spelling
/// is found through the index on `lower(tag)` (one lookup per tag, whatever the history's size).
enum FocusTagSpelling {
    /// `tags` (normalized) with each spelt as a session already spells it, in stored form (sorted):
    /// an ended session's spelling (the day totals), else the open session's.
    static func existing(_ db: Database, _ tags: [String]) throws -> [String] {
        guard !tags.isEmpty else { return tags }
        let statement = try db.cachedStatement(sql: "SELECT tag FROM focus_day_tag WHERE lower(tag) = ? ORDER BY tag LIMIT 1")
        let open =
            try String.fetchOne(db.cachedStatement(sql: "SELECT tags FROM focus_session WHERE state IN ('active', 'paused') LIMIT 1"))
            .map(TagsColumn.decode) ?? []
        return try tags.map { tag in
            let folded = FocusTags.folded(tag)
            return try String.fetchOne(statement, arguments: [folded]) ?? open.first { FocusTags.folded($0) == folded } ?? tag
        }.sorted()
    }
}
