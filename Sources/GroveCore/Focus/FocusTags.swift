import Foundation

/// What a focus session was for: a few short labels (`essay`, `deep work`, `client-x`).
///
/// The rules every face shares: a tag is 1…40 characters once trimmed, with no comma (Grove's CSV
/// and the `--map tag=` importer list a session's tags comma-separated) and no control character; a
/// session has at most ten, each once. The stored form is sorted, so two devices that chose the same
/// tags hold the same value. Tags keep their case: `Essay` and `essay` are two tags, as in timewarrior.
public enum FocusTags {
    /// The most tags one session carries.
    public static let maxCount = 10
    /// The longest tag, in characters.
    public static let maxLength = 40

    /// The stored form of tags a person typed: trimmed, each once whatever its case ("Reading" and
    /// "reading" are one tag: the first spelling stays), sorted; throws the first rule broken, naming
    /// the field `tags`. The store then spells each as it was spelt before (`folded`).
    public static func normalized<S: Sequence<String>>(_ tags: S) throws -> [String] {
        var seen = Set<String>()
        var result: [String] = []
        for raw in tags {
            let tag = trimmed(raw)
            try check(tag)
            if seen.insert(folded(tag)).inserted { result.append(tag) }
        }
        guard result.count <= maxCount else {
            throw InvalidField("tags", "A session can have at most \(maxCount) tags (got \(result.count))")
        }
        return result.sorted()
    }

    /// The form two spellings of one tag share: SQLite's `lower()`, which folds ASCII letters only,
    /// so that the store's index on `lower(tag)` finds what this finds.
    public static func folded(_ tag: String) -> String {
        // Nearly every tag is folded already: returned as it is, without making a copy.
        guard tag.utf8.contains(where: { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) else { return tag }
        return String(
            String.UnicodeScalarView(tag.unicodeScalars.map { ("A"..."Z").contains($0) ? Unicode.Scalar($0.value + 32) ?? $0 : $0 }))
    }

    /// Reads `essay, deep work` (a comma-separated list, as the CSV column and the web field hold it).
    public static func parseList(_ text: String) throws -> [String] {
        try normalized(text.split(separator: ",").map(String.init).filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty })
    }

    /// `raw` without white space at either end, as Foundation's `.whitespacesAndNewlines` trims it
    /// (Unicode's White_Space, and U+200B ZERO WIDTH SPACE). A tag read from a file is nearly always
    /// trimmed already: then it is returned as it is, without Foundation's trimming (a tenth of a
    /// large import, measured). A test compares the two for every scalar of the BMP at either end.
    static func trimmed(_ raw: String) -> String {
        let scalars = raw.unicodeScalars
        guard let first = scalars.first, let last = scalars.last else { return raw }
        func mayTrim(_ scalar: Unicode.Scalar) -> Bool { scalar.properties.isWhitespace || scalar.value == 0x200B }
        if !mayTrim(first) && !mayTrim(last) { return raw }
        return raw.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Throws unless `tag` (already trimmed) is a valid tag.
    public static func check(_ tag: String) throws {
        guard !tag.isEmpty else { throw InvalidField("tags", "A tag cannot be empty") }
        // ASCII (nearly every tag) is checked on its bytes: one code point each, and its controls are
        // C0 and DEL. Anything else goes through the scalars' properties.
        let ascii = tag.utf8.allSatisfy { $0 < 0x80 }
        // Counted in code points, as SQLite's length() and JSON Schema count them (a flag emoji is two).
        let length = ascii ? tag.utf8.count : tag.unicodeScalars.count
        guard length <= maxLength else {
            throw InvalidField("tags", "A tag can be at most \(maxLength) characters (\"\(tag.prefix(20))…\" has \(length))")
        }
        // The byte, as the CSV splits on it (even where a combining mark follows it).
        guard !tag.utf8.contains(UInt8(ascii: ",")) else {
            throw InvalidField("tags", "A tag cannot contain a comma (\"\(tag)\"): commas separate tags")
        }
        let control =
            ascii
            ? tag.utf8.contains { $0 < 0x20 || $0 == 0x7F } : tag.unicodeScalars.contains { $0.properties.generalCategory == .control }
        guard !control else { throw InvalidField("tags", "A tag cannot contain control characters") }
    }

    /// A tag asked for in a filter (`--tag`, `?tag=`): trimmed and checked by the same rules.
    public static func filter(_ raw: String) throws -> String {
        let tag = trimmed(raw)
        try check(tag)
        return tag
    }

    /// Throws unless `tags` is already in stored form (what an import or a synced row must carry).
    public static func validateStored(_ tags: [String]) throws {
        guard try normalized(tags) == tags else {
            throw InvalidField("tags", "Tags must be trimmed, each given once and sorted (got \(tags.prefix(5)))")
        }
    }

    /// `essay, writing` for people (empty when there are none).
    public static func display(_ tags: [String]) -> String { tags.joined(separator: ", ") }
}
