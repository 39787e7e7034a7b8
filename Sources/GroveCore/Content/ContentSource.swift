import Foundation

/// A place content packs come from: an HTTP(S) URL Grove checks once a day (seed 003's 24 h cache).
public struct ContentSource: Sendable, Equatable, Codable {
    /// The pack's address; also the source's identity.
    public var url: String
    public var addedAt: Date
    /// The validator of the pack in use, sent back as `If-None-Match`.
    public var etag: String?
    /// The last time Grove asked, whatever the answer.
    public var lastChecked: Date?
    /// The last time the source answered with a good pack or "not modified".
    public var lastFetched: Date?
    /// Items from this source in the library now.
    public var itemCount: Int
    /// Why the last check failed (nil after a good one).
    public var lastError: String?

    /// A pack is fresh for a day (seed 003: "TTL 24 hours").
    public static let timeToLive: TimeInterval = 86_400
    /// After a failed check, the next one waits an hour rather than a day: being offline is usually brief.
    public static let retryAfterFailure: TimeInterval = 3_600
    public static let maxURLLength = 2_048

    public init(
        url: String, addedAt: Date, etag: String? = nil, lastChecked: Date? = nil, lastFetched: Date? = nil,
        itemCount: Int = 0, lastError: String? = nil
    ) {
        self.url = url
        self.addedAt = addedAt
        self.etag = etag
        self.lastChecked = lastChecked
        self.lastFetched = lastFetched
        self.itemCount = itemCount
        self.lastError = lastError
    }

    /// When the source should next be asked: a day after the last good answer, an hour after a
    /// failure, at once when it never answered.
    public var nextCheck: Date {
        if lastError != nil, let lastChecked { return lastChecked.addingTimeInterval(Self.retryAfterFailure) }
        return lastFetched.map { $0.addingTimeInterval(Self.timeToLive) } ?? .distantPast
    }

    public func isDue(at now: Date) -> Bool { nextCheck <= now }

    /// The URL as given, checked: absolute http or https with a host, no credentials, no fragment,
    /// at most 2,048 characters. Surrounding spaces are dropped.
    public static func normalizedURL(_ text: String) throws(PauseValidationError) -> String {
        let url = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard url.storedLength <= maxURLLength, !url.containsNUL, let components = URLComponents(string: url),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = components.host, !host.isEmpty, components.user == nil, components.password == nil, components.fragment == nil,
            url.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value != 0x7F })
        else { throw .invalidContentSource(url) }
        return url
    }
}
