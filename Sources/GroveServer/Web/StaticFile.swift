import Foundation
import HTTPTypes

/// A file of the web app (stylesheet, script, image), in memory, with what a browser revalidates by.
struct StaticFile: Sendable {
    let data: Data
    let type: String
    /// When the file was built into the server, to the second (`Last-Modified`).
    let modified: Date
    /// A strong validator of the bytes (`ETag`): FNV-1a 64 of the content, in quotes.
    let etag: String

    init(data: Data, type: String, modified: Date) {
        self.data = data
        self.type = type
        self.modified = Date(timeIntervalSince1970: modified.timeIntervalSince1970.rounded(.down))
        etag = "\"" + String(Self.fnv1a(data), radix: 16) + "\""
    }

    /// FNV-1a 64 of `bytes`: the files' validators and the service worker's version.
    static func fnv1a(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }

    /// `Last-Modified`'s text (RFC 9110 §5.6.7, IMF-fixdate).
    var lastModified: String { Self.httpDate.format(modified) }

    /// Whether the browser's copy is this one: `If-None-Match` names its tag (weakly, as a compressed
    /// copy's `W/` tag does), else `If-Modified-Since` is the date this server sent (browsers send
    /// back the `Last-Modified` they were given, verbatim).
    func isFresh(_ headers: HTTPFields) -> Bool {
        if let match = headers[.ifNoneMatch] {
            return match == "*"
                || match.split(separator: ",").contains { tag in
                    let trimmed = tag.trimmingCharacters(in: .whitespaces)
                    return (trimmed.hasPrefix("W/") ? String(trimmed.dropFirst(2)) : trimmed) == etag
                }
        }
        return headers[.ifModifiedSince] == lastModified
    }

    static let httpDate = Date.VerbatimFormatStyle(
        format:
            "\(weekday: .abbreviated), \(day: .twoDigits) \(month: .abbreviated) \(year: .defaultDigits) \(hour: .twoDigits(clock: .twentyFourHour, hourCycle: .zeroBased)):\(minute: .twoDigits):\(second: .twoDigits) GMT",
        locale: Locale(identifier: "en_US_POSIX"), timeZone: .gmt, calendar: Calendar(identifier: .gregorian))
}
