import Foundation

/// Parses human durations: `25m`, `90s`, `1h30m`, `1h 30m 10s`, or a bare number of minutes (`25`).
public enum DurationParser {
    public static func seconds(_ text: String) -> TimeInterval? {
        let s = text.lowercased().replacingOccurrences(of: " ", with: "")
        guard !s.isEmpty else { return nil }
        if let minutes = Double(s) { return minutes > 0 ? minutes * 60 : nil }
        var total: TimeInterval = 0
        var number = ""
        var sawUnit = false
        for ch in s {
            if ch.isNumber || ch == "." {
                number.append(ch)
                continue
            }
            guard let value = Double(number) else { return nil }
            switch ch {
            case "h": total += value * 3600
            case "m": total += value * 60
            case "s": total += value
            default: return nil
            }
            number = ""
            sawUnit = true
        }
        guard number.isEmpty, sawUnit, total > 0 else { return nil }
        return total
    }

    /// `1h 05m`, `25:00`-style clock for countdowns.
    public static func clock(_ t: TimeInterval) -> String {
        let total = Int(t.rounded(.up))
        let h = total / 3600, m = total % 3600 / 60, s = total % 60
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return h > 0 ? "\(h):\(two(m)):\(two(s))" : "\(two(m)):\(two(s))"
    }
}
