import Foundation

/// Where a page of sessions ended: the last one's instant (its start in a list by start, its end in
/// the forest) and its id. The next page starts right after it, by an index range: a page costs the
/// same at any depth, where an offset makes the database step over every row before it.
public struct SessionCursor: Equatable, Sendable {
    /// The last session's instant, in milliseconds since 1970 as stored.
    public var millis: Int64
    public var id: UUID

    /// The instants a cursor may carry: 1970 to the year 3000 (no session lies outside).
    static let range: ClosedRange<Int64> = 0...32_503_680_000_000

    /// After the session at `time` (stored to the millisecond) with `id`.
    public init(time: Date, id: UUID) {
        let millis = (time.timeIntervalSince1970 * 1000).rounded()
        self.millis = millis.isFinite ? Int64(min(max(millis, Double(Self.range.lowerBound)), Double(Self.range.upperBound))) : 0
        self.id = id
    }

    /// `1746090000000~3f2a…`: milliseconds since 1970 and the id, as the `after` parameter carries it.
    public var token: String { "\(millis)~\(id.uuidString.lowercased())" }

    /// Reads a token back; anything else is refused naming `field`.
    public init(validating text: String, field: String = "after") throws {
        let parts = text.split(separator: "~", omittingEmptySubsequences: false)
        guard parts.count == 2, let millis = Int64(parts[0]), Self.range.contains(millis), let id = UUID(uuidString: String(parts[1]))
        else {
            throw InvalidField(field, "\(field) must be the cursor a page's next link carries (got \(text.quotedForMessage))")
        }
        self.millis = millis
        self.id = id
    }
}
