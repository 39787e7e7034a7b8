import Foundation

/// What a pause shows: a quote, an excerpt or a prompt (seed 003).
public struct MindfulnessContent: Identifiable, Hashable, Sendable, Codable {
    public enum ContentType: String, Codable, CaseIterable, Sendable { case quote, excerpt, prompt }

    public enum ContentCategory: String, Codable, CaseIterable, Sendable, Comparable {
        case stoicism, productivity, mindfulness, gratitude, nature, philosophy
        public var displayName: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }
        public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    }

    public var id: String
    public var type: ContentType
    /// 50…750 characters.
    public var text: String
    public var category: ContentCategory
    /// Attribution, where there is one.
    public var author: String?
    /// Approximate reading time, seconds (10…60).
    public var length: Int
    /// Display priority 1…10; higher is shown more often.
    public var priority: Int
    /// Shipped with Grove (true) or added by the user / a content pack (false).
    public var isBundled: Bool
    /// When it was last shown.
    public var lastUsed: Date?
    /// How many times it has been shown: the rotation's fairness counter (a Grove addition).
    public var timesShown: Int
    /// The content source (URL) a pack item came from; nil for bundled items and the user's own.
    /// Kept by the store: a pack cannot claim it and saving an item does not change it.
    public var source: String?

    public static let textLengthRange = 50...750
    /// The most characters an author's name may have.
    public static let maxAuthorLength = 200
    public static let readingLengthRange = 10...60
    public static let priorityRange = 1...10
    public static let defaultPriority = 5

    public init(
        id: String, type: ContentType, text: String, category: ContentCategory, author: String? = nil, length: Int? = nil,
        priority: Int = MindfulnessContent.defaultPriority, isBundled: Bool = false, lastUsed: Date? = nil, timesShown: Int = 0
    ) {
        self.id = id
        self.type = type
        self.text = text
        self.category = category
        self.author = author
        self.length = length ?? MindfulnessContent.readingLength(of: text)
        self.priority = priority
        self.isBundled = isBundled
        self.lastUsed = lastUsed
        self.timesShown = timesShown
    }

    /// A reading-time estimate: ~200 words a minute, clamped to 10…60 s.
    public static func readingLength(of text: String) -> Int {
        let words = text.split(whereSeparator: { $0.isWhitespace }).count
        return min(60, max(10, Int((Double(words) / 200 * 60).rounded(.up))))
    }

    public func validate() throws(PauseValidationError) {
        guard !id.isEmpty, id.storedLength <= 100,
            id.unicodeScalars.allSatisfy({ CharacterSet.alphanumerics.contains($0) && $0.isASCII || "-_.".unicodeScalars.contains($0) })
        else { throw .invalidContentID(id) }
        // Measured as stored (the store keeps the text as given), so that the schema's CHECK agrees.
        if text.containsNUL || author?.containsNUL == true { throw .nulCharacter(field: text.containsNUL ? "text" : "author") }
        if let author, author.storedLength > Self.maxAuthorLength {
            throw .textTooLong(field: "author", limit: Self.maxAuthorLength, length: author.storedLength)
        }
        let count = text.storedLength
        guard Self.textLengthRange.contains(count),
            Self.textLengthRange.contains(text.trimmingCharacters(in: .whitespacesAndNewlines).storedLength)
        else { throw .contentTextLength(count) }
        guard Self.readingLengthRange.contains(length) else { throw .contentReadingLength(length) }
        guard Self.priorityRange.contains(priority) else { throw .contentPriority(priority) }
        guard timesShown >= 0 else { throw .inconsistentRecord(field: "timesShown", rule: "timesShown cannot be negative") }
    }

    private enum CodingKeys: String, CodingKey {
        case id, type, text, category, author, length, priority, isBundled, lastUsed, timesShown, source
    }

    /// Content packs may leave out what Grove can work out: reading length, priority, counters.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try c.decode(String.self, forKey: .id), type: try c.decode(ContentType.self, forKey: .type),
            text: try c.decode(String.self, forKey: .text), category: try c.decode(ContentCategory.self, forKey: .category),
            author: try c.decodeIfPresent(String.self, forKey: .author), length: try c.decodeIfPresent(Int.self, forKey: .length),
            priority: try c.decodeIfPresent(Int.self, forKey: .priority) ?? Self.defaultPriority,
            isBundled: try c.decodeIfPresent(Bool.self, forKey: .isBundled) ?? false,
            lastUsed: try c.decodeIfPresent(Date.self, forKey: .lastUsed),
            timesShown: try c.decodeIfPresent(Int.self, forKey: .timesShown) ?? 0)
    }
}
