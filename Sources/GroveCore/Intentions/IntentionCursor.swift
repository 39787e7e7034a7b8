import Foundation

/// Where a page of intentions ends, newest first (date, then last change, then id): the next page
/// starts right after it, at the cost of one page whatever the history (SQL keyset paging).
public struct IntentionCursor: Equatable, Sendable {
    public var date: LocalDay
    /// The intention's last change, in milliseconds since 1970 as stored.
    public var updatedMillis: Int64
    public var id: UUID

    /// After `intention`.
    public init(after intention: Intention) {
        date = intention.date
        let millis = (intention.updatedAt.timeIntervalSince1970 * 1000).rounded()
        updatedMillis = millis.isFinite ? Int64(min(max(millis, 0), Double(SessionCursor.range.upperBound))) : 0
        id = intention.id
    }

    /// `2026-11-24~1764000000000~3f2a…`, as the `after` parameter carries it.
    public var token: String { "\(date)~\(updatedMillis)~\(id.uuidString.lowercased())" }

    /// Reads a token back; anything else is refused naming `field`.
    public init(validating text: String, field: String = "after") throws {
        let parts = text.split(separator: "~", omittingEmptySubsequences: false)
        guard parts.count == 3, let date = LocalDay(String(parts[0])), let millis = Int64(parts[1]),
            SessionCursor.range.contains(millis), let id = UUID(uuidString: String(parts[2]))
        else {
            throw InvalidField(field, "\(field) must be the cursor a page's next link carries (got \(text.quotedForMessage))")
        }
        self.date = date
        updatedMillis = millis
        self.id = id
    }
}
