import Foundation

/// The one rule for a range a person asks about (`--from`/`--to`, `?from=&to=`): it may be a single
/// day or instant, never reversed. A reversed range is refused, naming `to`, rather than answered
/// with a silent empty list.
public enum RangeRule {
    public static func check<T: Comparable & CustomStringConvertible>(from: T?, to: T?) throws(InvalidField) {
        guard let from, let to, to < from else { return }
        throw InvalidField("to", "to (\(to)) is before from (\(from)): give the earlier day first")
    }
}
