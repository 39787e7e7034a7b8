import Foundation

/// Parses human durations: `25m`, `90s`, `1h30m`, `1h 30m 10s`, or a bare number of minutes (`25`).
public enum DurationParser {
    /// The longest duration read at all (ten years); every use then applies its own, smaller range.
    /// Beyond it — `inf`, `1e308`, twenty nines — is refused here, before any arithmetic can overflow.
    public static let maxSeconds: TimeInterval = 10 * 366 * 86_400

    public static func seconds(_ text: String) -> TimeInterval? {
        guard let total = unchecked(text), total.isFinite, total > 0, total <= maxSeconds else { return nil }
        return total
    }

    /// A duration typed by a person, for every face and import alike. Zero is read (`0`, `0m`): the
    /// field's own rule then refuses it in its own words ("Duration must be greater than 0"). Anything
    /// else unreadable is an error naming `field` and the accepted forms.
    public static func seconds(validating text: String, field: String) throws -> TimeInterval {
        if isZero(text) { return 0 }
        guard let seconds = seconds(text) else {
            throw InvalidField(field, "\(field) must be a duration like 25m, 90s or 1h30m (got \(text.quotedForMessage))")
        }
        return seconds
    }

    /// `0`, `0m`, `0h0m0s`, `0.0`: a number of nothing.
    private static func isZero(_ text: String) -> Bool {
        let s = text.lowercased().replacingOccurrences(of: " ", with: "")
        return s.count <= 40 && s.first == "0" && s.allSatisfy { "0hms.".contains($0) }
    }

    private static func unchecked(_ text: String) -> TimeInterval? {
        let s = text.lowercased().replacingOccurrences(of: " ", with: "")
        // Digits, one decimal point per number, and the unit letters only: no "inf", "nan", "0x1p3" or exponents.
        guard !s.isEmpty, s.count <= 40, s.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) || "hms.".unicodeScalars.contains($0) })
        else {
            return nil
        }
        if let minutes = Double(s) { return minutes > 0 ? minutes * 60 : nil }
        var total: TimeInterval = 0
        var number = ""
        var sawUnit = false
        for ch in s {
            if ch.isASCII && (ch.isNumber || ch == ".") {
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
    public static func clock(_ t: TimeInterval) -> String { ClockText.format(t) }
}
