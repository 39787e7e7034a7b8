import Foundation

/// Countdown text: `25:00`, `1:05:00` — the one formatter of remaining and total times in Swift (the
/// browser's countdown, which ticks between server answers, formats the same way in `app.js`).
public enum ClockText {
    /// `MM:SS` under an hour, else `H:MM:SS` (`HH:MM:SS` with `padHours`). Seconds round up, so a
    /// countdown shows `00:01` until it is really over; any Double is accepted (NaN and negatives are 0).
    public static func format(_ seconds: TimeInterval, padHours: Bool = false) -> String {
        let total = seconds.isFinite ? Int(min(max(seconds, 0), 1e12).rounded(.up)) : 0
        let h = total / 3600, m = total % 3600 / 60, s = total % 60
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return h > 0 ? "\(padHours ? two(h) : String(h)):\(two(m)):\(two(s))" : "\(two(m)):\(two(s))"
    }
}
