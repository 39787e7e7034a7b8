import Foundation
import GRDB
import GroveCore

/// Focus sessions straight from their columns into export bytes: exports hold a million sessions,
/// and decoding each into a model and running it through `JSONEncoder` cost ten times the reading.
/// The JSON is byte for byte what `JSONEncoder` (sorted keys, compact) writes for the model, which a
/// test checks on random sessions.
enum SessionRows {
    /// The columns, in the order `appendJSON` and `appendCSV` read them.
    static let select = """
        SELECT id, start_time, end_time, state, duration_ms, paused_ms, planned_ms, paused_at, created_at, time_zone, end_day, clock_uncertain, tags,
            open_ended
        FROM focus_session
        """

    /// One session as a compact JSON object with its keys sorted.
    static func appendJSON(_ row: Row, to out: inout [UInt8]) {
        out.append(contentsOf: #"{"clockUncertain":"#.utf8)
        out.append(contentsOf: (row[11] as Int64? ?? 0) != 0 ? "true".utf8 : "false".utf8)
        out.append(contentsOf: #","createdAt":"#.utf8)
        appendInstant(row[8], to: &out)
        out.append(contentsOf: #","duration":"#.utf8)
        appendSeconds(row[4], to: &out)
        if let endDay: String = row[10] {
            out.append(contentsOf: #","endDay":"#.utf8)
            appendString(endDay, to: &out)
        }
        if let end: Int64 = row[2] {
            out.append(contentsOf: #","endTime":"#.utf8)
            appendInstant(end, to: &out)
        }
        out.append(contentsOf: #","id":"#.utf8)
        appendString(row[0], to: &out)
        if (row[13] as Int64? ?? 0) != 0 { out.append(contentsOf: #","openEnded":true"#.utf8) }
        if let pausedAt: Int64 = row[7] {
            out.append(contentsOf: #","pausedAt":"#.utf8)
            appendInstant(pausedAt, to: &out)
        }
        out.append(contentsOf: #","pausedDuration":"#.utf8)
        appendSeconds(row[5], to: &out)
        out.append(contentsOf: #","plannedDuration":"#.utf8)
        appendSeconds(row[6], to: &out)
        out.append(contentsOf: #","startTime":"#.utf8)
        appendInstant(row[1], to: &out)
        out.append(contentsOf: #","state":"#.utf8)
        appendString(row[3], to: &out)
        // Decoded and written again rather than copied: a synced row's array may be spaced or escaped
        // differently from what `JSONEncoder` writes.
        let tags = TagsColumn.decode(row[12])
        if !tags.isEmpty {
            out.append(contentsOf: #","tags":["#.utf8)
            for (index, tag) in tags.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                appendString(tag, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
        out.append(contentsOf: #","timeZoneIdentifier":"#.utf8)
        appendString(row[9], to: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// One session as a CSV row: id, start, end, state, durations in seconds, zone, end day, tags
    /// (comma-separated in one field: a tag holds no comma).
    static func appendCSV(_ row: Row, to out: inout [UInt8]) {
        appendCSVField(row[0], to: &out)
        out.append(UInt8(ascii: ","))
        appendInstant(row[1], to: &out, quoted: false)
        out.append(UInt8(ascii: ","))
        if let end: Int64 = row[2] { appendInstant(end, to: &out, quoted: false) }
        out.append(UInt8(ascii: ","))
        appendCSVField(row[3], to: &out)
        for column in [4, 5, 6] {
            out.append(UInt8(ascii: ","))
            appendSeconds(row[column], to: &out, allThreeDigits: true)
        }
        out.append(UInt8(ascii: ","))
        appendCSVField(row[9], to: &out)
        out.append(UInt8(ascii: ","))
        if let day: String = row[10] { appendCSVField(day, to: &out) }
        out.append(UInt8(ascii: ","))
        let tags = TagsColumn.decode(row[12])
        if !tags.isEmpty { appendCSVField(tags.joined(separator: ","), to: &out) }
        out.append(contentsOf: "\r\n".utf8)
    }

    /// `"2025-03-09T07:00:00.000Z"`, as `GroveExport.formatInstant` writes it.
    static func appendInstant(_ millis: Int64, to out: inout [UInt8], quoted: Bool = true) {
        if quoted { out.append(UInt8(ascii: "\"")) }
        out.append(contentsOf: GroveExport.formatInstant(Date(groveMillis: millis)).utf8)
        if quoted { out.append(UInt8(ascii: "\"")) }
    }

    /// Milliseconds as seconds the way `JSONEncoder` writes the `Double`: `1500`, `1500.5`, `0.001`;
    /// with `allThreeDigits`, as the CSV always wrote a fraction: `1500.500`.
    static func appendSeconds(_ millis: Int64, to out: inout [UInt8], allThreeDigits: Bool = false) {
        let seconds = TimeInterval(groveMillis: millis)
        // Whole and short values are exact in decimal; anything else goes the long way.
        guard abs(millis) < 1 << 50 else { return out.append(contentsOf: "\(seconds)".utf8) }
        if millis < 0 { out.append(UInt8(ascii: "-")) }
        let magnitude = abs(millis)
        out.append(contentsOf: String(magnitude / 1000).utf8)
        var fraction = magnitude % 1000
        guard fraction != 0 else { return }
        out.append(UInt8(ascii: "."))
        var digits = 3
        while !allThreeDigits, fraction % 10 == 0 { fraction /= 10; digits -= 1 }
        let text = String(fraction)
        out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: digits - text.utf8.count))
        out.append(contentsOf: text.utf8)
    }

    /// A JSON string, escaped as `JSONEncoder` escapes it (with `withoutEscapingSlashes`).
    static func appendString(_ string: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
            case 0x08: out.append(contentsOf: #"\b"#.utf8)
            case 0x0C: out.append(contentsOf: #"\f"#.utf8)
            case 0x0A: out.append(contentsOf: #"\n"#.utf8)
            case 0x0D: out.append(contentsOf: #"\r"#.utf8)
            case 0x09: out.append(contentsOf: #"\t"#.utf8)
            case ..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: #"\u00"#.utf8)
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// An RFC 4180 field: quoted when it holds a comma, a quote or a line break.
    static func appendCSVField(_ field: String, to out: inout [UInt8]) {
        out.append(contentsOf: AppDatabase.csvField(field).utf8)
    }
}
