import Foundation
import GroveCore

/// `focus_session.tags`: a session's tags as a JSON array of strings, NULL when it has none (the
/// per-day-per-tag triggers read it with `json_each`).
enum TagsColumn {
    /// The column's value for `tags` (already in stored form).
    static func encode(_ tags: [String]) -> String? {
        guard !tags.isEmpty else { return nil }
        var out: [UInt8] = [UInt8(ascii: "[")]
        for (index, tag) in tags.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            SessionRows.appendString(tag, to: &out)
        }
        out.append(UInt8(ascii: "]"))
        return String(decoding: out, as: UTF8.self)
    }

    /// The tags a column holds; what is not an array of strings reads as none (the table's CHECK
    /// keeps anything else out).
    static func decode(_ text: String?) -> [String] {
        guard let text, !text.isEmpty else { return [] }
        var chunk: [UInt8]? = Array(text.utf8)
        var reader = JSONStreamReader {
            defer { chunk = nil }; return chunk
        }
        guard case .array(let items)? = try? reader.value() else { return [] }
        return items.compactMap { if case .string(let tag) = $0 { tag } else { nil } }
    }
}
