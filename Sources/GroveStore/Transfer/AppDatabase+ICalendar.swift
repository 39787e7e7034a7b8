import Foundation
import GroveCore

extension AppDatabase {
    /// Completed and abandoned focus sessions as an iCalendar file (RFC 5545), for any calendar app.
    public func exportFocusSessionsICS() throws -> String {
        ICalendar.focusSessions(try allFocusSessions(), stamp: environment.now())
    }
}

/// iCalendar (RFC 5545) writing.
public enum ICalendar {
    public static func focusSessions(_ sessions: [FocusSession], stamp: Date) -> String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Grove//Focus sessions//EN", "CALSCALE:GREGORIAN"]
        for s in sessions.reversed() where s.state.isTerminal {
            guard let end = s.endTime else { continue }
            lines += ["BEGIN:VEVENT", "UID:\(s.id.uuidString.lowercased())@grove", "DTSTAMP:\(utc(stamp))", "DTSTART:\(utc(s.startTime))",
                      "DTEND:\(utc(end))",
                      "SUMMARY:\(s.state == .completed ? "Focus session (tree planted)" : "Focus session (abandoned)")",
                      "DESCRIPTION:\(ForestStats.formatDuration(s.duration)) of focus\\, \(ForestStats.formatDuration(s.pausedDuration)) paused. Zone \(s.timeZoneIdentifier).",
                      "CATEGORIES:Grove,Focus", "END:VEVENT"]
        }
        lines.append("END:VCALENDAR")
        return lines.map(fold).joined(separator: "\r\n") + "\r\n"
    }

    /// `20250309T070000Z`.
    static func utc(_ date: Date) -> String {
        GroveExport.formatInstant(date).replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: "")
            .components(separatedBy: ".")[0] + "Z"
    }

    /// Lines longer than 75 octets continue on the next line after a space (RFC 5545 §3.1).
    public static func fold(_ line: String) -> String {
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
