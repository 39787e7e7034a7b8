import Foundation

/// What a device knows of the sync server's clock (SYNC.md "Clocks are bounded both ways"): learned
/// anew from every answer, and measured since on the monotonic clock, so that fixing this machine's
/// wall clock (NTP, a person) changes nothing — the next edit is stamped with the server's time at
/// once, not with a correction learned while the wall clock was wrong. Across a reboot (no monotonic
/// clock in common) the learned offset from the wall clock serves until the next answer.
public struct ServerClock: Sendable, Equatable {
    /// The server's time minus this machine's wall clock when last learned (0: within tolerance).
    public var offsetMillis: Int64
    /// The server's time when last learned, with the monotonic reading it was learned at.
    public var anchor: Anchor?

    /// The server's time at a monotonic reading.
    public struct Anchor: Sendable, Equatable {
        public var serverMillis: Int64
        public var bootID: String
        public var sinceBoot: TimeInterval
        public init(serverMillis: Int64, bootID: String, sinceBoot: TimeInterval) {
            self.serverMillis = serverMillis
            self.bootID = bootID
            self.sinceBoot = sinceBoot
        }
    }

    /// Wall clocks within this of the server's count as right (an answer's time is off by its trip).
    public static let toleranceMillis: Int64 = 2_000

    public init(offsetMillis: Int64 = 0, anchor: Anchor? = nil) {
        self.offsetMillis = offsetMillis
        self.anchor = anchor
    }

    /// The server's time now, as well as this device knows it.
    public func now(_ reading: ClockReading) -> Date {
        if let anchor, reading.bootID == anchor.bootID, let since = reading.sinceBoot, since >= anchor.sinceBoot {
            return Date(timeIntervalSince1970: Double(anchor.serverMillis) / 1000).addingTimeInterval(since - anchor.sinceBoot)
        }
        return reading.wall.addingTimeInterval(Double(offsetMillis) / 1000)
    }

    /// What an answer stamped `serverTime`, received at `reading`, teaches: a wall clock within
    /// tolerance is right (no correction, no anchor); one further off is corrected, from the monotonic
    /// clock when it has one.
    public static func learned(serverTime: Date, at reading: ClockReading) -> ServerClock {
        let difference = serverTime.groveMillis - reading.wall.groveMillis
        guard abs(difference) > toleranceMillis else { return ServerClock() }
        let anchor = reading.bootID.flatMap { boot in
            reading.sinceBoot.map { Anchor(serverMillis: serverTime.groveMillis, bootID: boot, sinceBoot: $0) }
        }
        return ServerClock(offsetMillis: difference, anchor: anchor)
    }
}
