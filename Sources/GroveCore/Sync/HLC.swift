import Foundation

/// A hybrid logical clock reading (SYNC.md "Clocks"): wall milliseconds, a counter for events in the
/// same millisecond, and the node (device) that made it.
///
/// Its text form collates in clock order — `2025-05-14T09:30:00.000Z-0001-9f3c0123456789ab` — so
/// that SQLite and PostgreSQL compare clocks as plain strings, and ties between devices break by node.
public struct HLC: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Milliseconds since 1970 UTC (0…9999-12-31, so that the text keeps four year digits).
    public var millis: Int64
    public var counter: UInt16
    /// Sixteen lowercase hex digits naming the device (the server uses all zeros).
    public var node: String

    /// The furthest ahead of the receiver's wall clock a remote clock may be (5 minutes).
    public static let maxDrift: Int64 = 5 * 60 * 1000
    /// The smallest clock: what rows written before sync began carry, so that any real edit wins.
    public static func zero(node: String) -> HLC { HLC(millis: 0, counter: 0, node: node) }
    /// The clock of a value nobody chose (a new store's defaults, a preset): below every clock a
    /// device makes, its own zero included, so that it never beats a person's choice anywhere.
    public static let unchosen = HLC(millis: 0, counter: 0, node: "0000000000000000")
    static let maxMillis: Int64 = 253_402_300_799_999

    public init(millis: Int64, counter: UInt16, node: String) {
        self.millis = min(max(0, millis), Self.maxMillis)
        self.counter = counter
        self.node = node
    }

    /// A node name from a device id: the first sixteen hex digits of its UUID.
    public static func node(for device: UUID) -> String {
        String(device.uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16))
    }

    /// The clock for a local event at `now`: later than every clock seen so far.
    public func tick(now: Date) -> HLC {
        let wall = now.groveMillis
        if wall > millis { return HLC(millis: wall, counter: 0, node: node) }
        return counter == .max ? HLC(millis: millis + 1, counter: 0, node: node) : HLC(millis: millis, counter: counter + 1, node: node)
    }

    /// This node's clock after seeing `remote` at `now`; throws when `remote` is further ahead of the
    /// wall clock than `maxDrift` (its sender's clock is wrong: it re-stamps rather than winning forever).
    public func receive(_ remote: HLC, now: Date) throws(HLCError) -> HLC {
        let wall = now.groveMillis
        guard remote.millis - wall <= Self.maxDrift else { throw .drift(remote: remote, aheadByMillis: remote.millis - wall) }
        let top = max(wall, millis, remote.millis)
        var next: UInt16
        if top == millis && top == remote.millis {
            next = max(counter, remote.counter)
        } else if top == millis {
            next = counter
        } else if top == remote.millis {
            next = remote.counter
        } else {
            return HLC(millis: top, counter: 0, node: node)
        }
        if next == .max { return HLC(millis: top + 1, counter: 0, node: node) }
        next += 1
        return HLC(millis: top, counter: next, node: node)
    }

    /// The same order as the text form (fixed widths), without formatting it.
    public static func < (lhs: HLC, rhs: HLC) -> Bool { (lhs.millis, lhs.counter, lhs.node) < (rhs.millis, rhs.counter, rhs.node) }

    public var description: String {
        // Written byte by byte: clocks are formatted for every row a sync moves.
        String(unsafeUninitializedCapacity: 30 + node.utf8.count) { buffer in
            HLC.writeStamp(millis, into: buffer)
            buffer[24] = UInt8(ascii: "-")
            for index in 0..<4 {
                let nibble = UInt8(truncatingIfNeeded: counter >> (12 - 4 * index)) & 0xF
                buffer[25 + index] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
            }
            buffer[29] = UInt8(ascii: "-")
            var end = 30
            for byte in node.utf8 { buffer[end] = byte; end += 1 }
            return end
        }
    }

    /// Parses the text form; nil unless it is exactly one (fixed widths, lowercase hex).
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 46, bytes[24] == UInt8(ascii: "-"), bytes[29] == UInt8(ascii: "-"),
            let millis = HLC.parseStamp(bytes[0..<24]),
            let counter = UInt16(String(decoding: bytes[25..<29], as: UTF8.self), radix: 16),
            bytes[25..<29].allSatisfy(HLC.isLowerHex), bytes[30...].allSatisfy(HLC.isLowerHex)
        else { return nil }
        self.init(millis: millis, counter: counter, node: String(decoding: bytes[30...], as: UTF8.self))
    }

    private static func isLowerHex(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }

    /// `YYYY-MM-DDTHH:MM:SS.mmmZ` for milliseconds since 1970 (proleptic Gregorian, UTC), by
    /// arithmetic: no formatter, no locale, safe from any thread.
    static func stamp(_ millis: Int64) -> String {
        String(unsafeUninitializedCapacity: 24) { buffer in
            writeStamp(millis, into: buffer)
            return 24
        }
    }

    /// Writes the 24 bytes of `stamp(millis)` at the start of `buffer`.
    private static func writeStamp(_ millis: Int64, into buffer: UnsafeMutableBufferPointer<UInt8>) {
        // Milliseconds are clamped to 0…9999-12-31 (four year digits; the day number fits any Int).
        let clamped = min(max(0, millis), maxMillis)
        let days = clamped / 86_400_000, rest = clamped % 86_400_000
        let day = LocalDay(dayNumber: Int(days))
        func put(_ value: Int64, at start: Int, width: Int) {
            var value = value
            for index in stride(from: start + width - 1, through: start, by: -1) {
                buffer[index] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
            }
        }
        put(Int64(day.year), at: 0, width: 4); buffer[4] = UInt8(ascii: "-")
        put(Int64(day.month), at: 5, width: 2); buffer[7] = UInt8(ascii: "-")
        put(Int64(day.day), at: 8, width: 2); buffer[10] = UInt8(ascii: "T")
        put(rest / 3_600_000, at: 11, width: 2); buffer[13] = UInt8(ascii: ":")
        put(rest / 60_000 % 60, at: 14, width: 2); buffer[16] = UInt8(ascii: ":")
        put(rest / 1000 % 60, at: 17, width: 2); buffer[19] = UInt8(ascii: ".")
        put(rest % 1000, at: 20, width: 3); buffer[23] = UInt8(ascii: "Z")
    }

    static func parseStamp(_ bytes: ArraySlice<UInt8>) -> Int64? {
        let b = Array(bytes)
        guard b.count == 24, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"), b[10] == UInt8(ascii: "T"),
            b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"), b[19] == UInt8(ascii: "."), b[23] == UInt8(ascii: "Z")
        else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            var value: Int64 = 0
            for index in range {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b[index]) else { return nil }
                value = value * 10 + Int64(b[index] - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), let hour = number(11..<13),
            let minute = number(14..<16), let second = number(17..<19), let milli = number(20..<23),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60
        else { return nil }
        guard let date = LocalDay(year: Int(year), month: Int(month), day: Int(day)), date.dayNumber >= 0 else { return nil }
        return Int64(date.dayNumber) * 86_400_000 + hour * 3_600_000 + minute * 60_000 + second * 1000 + milli
    }
}

/// Why a clock was refused.
public enum HLCError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The remote clock is ahead of this machine's wall clock by more than five minutes.
    case drift(remote: HLC, aheadByMillis: Int64)

    public var description: String {
        switch self {
        case .drift(let remote, let ahead):
            "The clock \(remote) is \(ahead / 1000) s ahead of this machine's (at most \(HLC.maxDrift / 1000) s allowed)"
        }
    }
}

extension Date {
    /// Whole milliseconds since 1970, clamped (total: no trap on any date).
    var groveMillis: Int64 {
        let value = (timeIntervalSince1970 * 1000).rounded(.down)
        guard value.isFinite else { return 0 }
        if value >= 9.2e18 { return Int64.max }
        if value <= -9.2e18 { return Int64.min }
        return Int64(value)
    }
}
