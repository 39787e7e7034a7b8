import Foundation

/// The one rule for a range a person asks about (`--from`/`--to`, `?from=&to=`): it may be a single
/// day or instant, never reversed. A reversed range is refused, naming `to`, rather than answered
/// with a silent empty list.
public enum RangeRule {
    public static func check<T: Comparable & CustomStringConvertible>(from: T?, to: T?) throws(ReversedRange) {
        guard let from, let to, to < from else { return }
        throw ReversedRange(from: from.description, to: to.description)
    }
}

/// A range whose end comes before its start: a question asked wrongly (exit 64; 400 over HTTP, as a
/// query parameter that cannot be used).
public struct ReversedRange: GroveValidationError, Equatable {
    public let from: String
    public let to: String
    public var field: String { "to" }
    public var message: String { "to (\(to)) is before from (\(from)): give the earlier day first" }
}
