import Foundation
import GroveCore

/// iCalendar (RFC 5545) writing.
public enum ICalendar {
    /// The calendar's opening lines.
    static let header = folded(["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Grove//Focus sessions//EN", "CALSCALE:GREGORIAN"])
    /// Its closing line.
    static let footer = folded(["END:VCALENDAR"])

    /// One session as an event (nothing for a session still running).
    static func event(_ s: FocusSession, stamp: Date) -> String {
        guard s.state.isTerminal, let end = s.endTime else { return "" }
        return folded([
            "BEGIN:VEVENT", "UID:\(s.id.uuidString.lowercased())@grove", "DTSTAMP:\(utc(stamp))", "DTSTART:\(utc(s.startTime))",
            "DTEND:\(utc(end))",
            "SUMMARY:\(s.state == .completed ? "Focus session (tree planted)" : "Focus session (abandoned)")",
            "DESCRIPTION:\(ForestStats.formatDuration(s.duration)) of focus\\, \(ForestStats.formatDuration(s.pausedDuration)) paused. Zone \(s.timeZoneIdentifier).",
            "CATEGORIES:" + (["Grove", "Focus"] + s.tags).map(text).joined(separator: ","), "END:VEVENT",
        ])
    }

    /// A TEXT value (RFC 5545 §3.3.11): backslash, comma, semicolon and line breaks escaped.
    static func text(_ value: String) -> String {
        var out = ""
        for ch in value {
            switch ch {
            case "\\": out += "\\\\"
            case ",": out += "\\,"
            case ";": out += "\\;"
            case "\n", "\r\n", "\r": out += "\\n"
            default: out.append(ch)
            }
        }
        return out
    }

    /// Sessions (oldest first) as a whole calendar.
    public static func focusSessions(_ sessions: [FocusSession], stamp: Date) -> String {
        header + sessions.map { event($0, stamp: stamp) }.joined() + footer
    }

    private static func folded(_ lines: [String]) -> String { lines.map { fold($0) + "\r\n" }.joined() }

    /// `20250309T070000Z`: the export's instant without its separators and milliseconds.
    static func utc(_ date: Date) -> String {
        let text = GroveExport.formatInstant(date).utf8
        var out: [UInt8] = []
        out.reserveCapacity(16)
        for byte in text.prefix(19) where byte != UInt8(ascii: "-") && byte != UInt8(ascii: ":") { out.append(byte) }
        out.append(UInt8(ascii: "Z"))
        return String(decoding: out, as: UTF8.self)
    }

    /// Lines longer than 75 octets continue on the next line after a space (RFC 5545 §3.1).
    public static func fold(_ line: String) -> String {
        // Nearly every line fits.
        if line.utf8.count <= 75 { return line }
        var out = "", count = 0
        for ch in line {
            let size = String(ch).utf8.count
            if count + size > 75 {
                out += "\r\n "
                count = 1
            }
            out.append(ch)
            count += size
        }
        return out
    }
}
