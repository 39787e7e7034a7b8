import Foundation

/// One reading of the machine's clocks: the wall clock, plus the boot id and the time since boot
/// (a clock that keeps counting through sleep and never jumps) where the platform has them.
///
/// Why: the wall clock may jump (NTP, a user changing it), and a process may die. A session stores
/// the reading taken at its last transition; a later reading from the same boot measures elapsed time
/// exactly, whatever the wall clock did. After a reboot only the wall clock is left: it is clamped so
/// that time never runs backwards, and the session is flagged `clockUncertain`.
public struct ClockReading: Sendable, Hashable, Codable {
    public var wall: Date
    public var bootID: String?
    public var sinceBoot: TimeInterval?

    public init(wall: Date, bootID: String? = nil, sinceBoot: TimeInterval? = nil) {
        self.wall = wall
        self.bootID = bootID
        self.sinceBoot = sinceBoot
    }

    /// The instant this reading stands for, measured from `anchor`, and whether it had to trust the
    /// wall clock across a reboot (or a missing monotonic clock).
    public func resolved(since anchor: ClockReading?) -> (now: Date, uncertain: Bool) {
        guard let anchor else { return (wall, false) }
        if let bootID, bootID == anchor.bootID, let sinceBoot, let anchorSince = anchor.sinceBoot, sinceBoot >= anchorSince {
            return (anchor.wall.addingTimeInterval(sinceBoot - anchorSince), false)
        }
        let monotonicAvailable = anchor.bootID != nil && bootID != nil
        return (max(wall, anchor.wall), monotonicAvailable || wall < anchor.wall)
    }
}
