import Foundation
import GRDB
import GroveCore

/// A page of intentions, newest first, at the cost of one page whatever the history.
extension IntentionsRoom {
    /// The most one page holds.
    public static let maxPageSize = 1000

    /// Up to `limit` intentions, newest first, after `after`: dated `from`…`to` when given, of one
    /// `scope`, and matching `query` (as `search` matches: accents and case folded). An index range
    /// in SQL; a query is matched in Swift a batch at a time, stopping as soon as the page is full.
    public func page(
        from: LocalDay? = nil, to: LocalDay? = nil, scope: IntentionScope? = nil, matching query: String? = nil,
        after: IntentionCursor? = nil, limit: Int = IntentionsRoom.maxPageSize
    ) throws -> [Intention] {
        guard (1...Self.maxPageSize).contains(limit) else {
            throw InvalidField("limit", "limit must be from 1 to \(Self.maxPageSize) (got \(limit))")
        }
        if from != nil || to != nil { try RangeRule.check(from: from ?? .earliest, to: to ?? .latest) }
        let text = query?.trimmingCharacters(in: .whitespaces)
        if let text, text.isEmpty { return [] }
        var conditions: [String] = []
        var arguments: StatementArguments = []
        if let from {
            conditions.append("date >= ?")
            arguments += [from.description]
        }
        if let to {
            conditions.append("date <= ?")
            arguments += [to.description]
        }
        if let scope {
            conditions.append("scope = ?")
            arguments += [scope.rawValue]
        }
        return try writer.snapshotRead { db in
            var items: [Intention] = []
            var position = after
            // Without a query, one batch is the page; with one, batches go on until it is full.
            let batch = text == nil ? limit : Self.maxPageSize
            while true {
                var sql = "SELECT * FROM intention"
                var clauses = conditions
                var values = arguments
                if let position {
                    clauses.append("(date, updated_at, id) < (?, ?, ?)")
                    values += [position.date.description, position.updatedMillis, position.id.uuidString]
                }
                if !clauses.isEmpty { sql += " WHERE " + clauses.joined(separator: " AND ") }
                sql += " ORDER BY \(AppDatabase.newestFirst) LIMIT \(batch)"
                let rows = try IntentionRecord.fetchAll(db, sql: sql, arguments: values).map(\.intention)
                for intention in rows where text.map({ intention.matches(query: $0) }) ?? true {
                    items.append(intention)
                    if items.count == limit { return items }
                }
                guard rows.count == batch, let last = rows.last else { return items }
                position = IntentionCursor(after: last)
            }
        }
    }
}
