import Foundation

extension Intention {
    /// Folds text for searching: lower-cased, accents removed ("Café" → "cafe").
    public static func searchKey(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.lowercased().decomposedStringWithCanonicalMapping.unicodeScalars.filter {
                    $0.properties.generalCategory != .nonspacingMark
                }))
    }

    /// Whether the intention's text contains `query`, ignoring case and accents.
    public func matches(query: String) -> Bool {
        let key = Self.searchKey(query.trimmingCharacters(in: .whitespaces))
        return !key.isEmpty && Self.searchKey(text).contains(key)
    }
}
