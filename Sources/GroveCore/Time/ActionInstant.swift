import Foundation

/// When an action a person took counts from: now, or the instant a device recorded while it was
/// offline and sends later (the web app's queue: a focus started on a train counts from the train).
///
/// An instant from a device is believed within bounds: not after now (a clock a little fast is
/// forgiven `allowedSkew`, and counts as now), and not older than `longestOffline` — a queue older
/// than that describes a day nobody remembers, and is refused by name rather than rewriting it.
public enum ActionInstant {
    /// How far ahead of this machine's clock a device's instant may be and still count (as now).
    public static let allowedSkew: TimeInterval = 120
    /// The oldest instant an action may be recorded at.
    public static let longestOffline: TimeInterval = 7 * 86_400

    /// The instant the action counts from: `requested` within the bounds, or
    /// `now` when none was given. `field` names the input in the refusal.
    public static func resolve(_ requested: Date?, now: Date, field: String = "at") throws(InvalidField) -> Date {
        guard let requested else { return now }
        guard requested.timeIntervalSince(now) <= allowedSkew else {
            throw InvalidField(field, "\(field) is in the future: an action counts from when it was taken, at the latest now")
        }
        guard now.timeIntervalSince(requested) <= longestOffline else {
            throw InvalidField(field, "\(field) is more than 7 days ago: an action kept offline that long is not applied")
        }
        return min(requested, now)
    }
}
