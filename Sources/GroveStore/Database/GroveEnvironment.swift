import Foundation
import GroveCore

/// The side effects Grove depends on: the time, new ids, the system's zone, the machine's clocks.
///
/// Everything that reads the clock or makes an id takes it from here, so tests replace it wholesale
/// (pointfreeco/isowords style). `live` is the only place Grove reads the clock or makes a random id.
public struct GroveEnvironment: Sendable {
    public var now: @Sendable () -> Date
    public var uuid: @Sendable () -> UUID
    public var systemTimeZone: @Sendable () -> TimeZone
    /// Wall clock plus boot id and time since boot, for sessions that outlive their process.
    public var clockReading: @Sendable () -> ClockReading
    /// The least focus a tree costs (`FocusSession.shortestTree`, a minute). End-to-end tests that
    /// watch real trees grow lower it to seconds (`GROVE_SHORTEST_TREE`); nothing can raise it.
    public var shortestTree: TimeInterval = FocusSession.shortestTree

    public init(
        now: @escaping @Sendable () -> Date, uuid: @escaping @Sendable () -> UUID,
        systemTimeZone: @escaping @Sendable () -> TimeZone, clockReading: (@Sendable () -> ClockReading)? = nil
    ) {
        self.now = now
        self.uuid = uuid
        self.systemTimeZone = systemTimeZone
        self.clockReading = clockReading ?? { ClockReading(wall: now()) }
    }

    /// The real clock (rounded to the millisecond, the store's precision), random v4 ids, the system zone.
    public static let live = GroveEnvironment(
        now: { Date().groveRoundedToMillis },
        uuid: { UUID.random() },
        systemTimeZone: { TimeZone.current },
        clockReading: { MachineClock.read() })

    /// A fixed clock and counting ids, for tests: `now` can be moved with `TestClock.advance`.
    public static func test(clock: TestClock, zone: TimeZone = TimeZone(secondsFromGMT: 0) ?? .current) -> GroveEnvironment {
        GroveEnvironment(
            now: { clock.now }, uuid: { clock.nextUUID() }, systemTimeZone: { zone },
            clockReading: { ClockReading(wall: clock.now, bootID: clock.bootID, sinceBoot: clock.sinceBoot) })
    }
}

/// A settable clock and id source for tests and benchmarks.
public final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var _now: Date
    private var _sinceBoot: TimeInterval = 1000
    private var counter = 0
    private var _bootID = "test-boot"

    public init(_ now: Date) { _now = now }

    public var now: Date { lock.withLock { _now } }
    public var sinceBoot: TimeInterval { lock.withLock { _sinceBoot } }
    public var bootID: String { lock.withLock { _bootID } }

    /// Moves wall and monotonic clocks forward together.
    public func advance(by seconds: TimeInterval) {
        lock.withLock {
            _now += seconds; _sinceBoot += seconds
        }
    }
    /// Sets the wall clock only (a jump: NTP, a user changing the time).
    public func setWall(_ date: Date) { lock.withLock { _now = date } }
    /// Simulates a reboot: a new boot id and a monotonic clock that starts again.
    public func reboot() {
        lock.withLock {
            _bootID = UUID().uuidString; _sinceBoot = 5
        }
    }

    public func nextUUID() -> UUID {
        lock.withLock {
            counter += 1
            let bytes = withUnsafeBytes(of: UInt64(counter).bigEndian, Array.init)
            return UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7]))
        }
    }
}

/// Reads the machine's boot id and time since boot (Linux: /proc; elsewhere the wall clock only).
public enum MachineClock {
    public static func read() -> ClockReading {
        let wall = Date().groveRoundedToMillis
        #if os(Linux)
            var ts = timespec()
            let since: TimeInterval? =
                clock_gettime(CLOCK_BOOTTIME, &ts) == 0 ? TimeInterval(ts.tv_sec) + TimeInterval(ts.tv_nsec) / 1e9 : nil
            return ClockReading(wall: wall, bootID: bootID, sinceBoot: since)
        #else
            return ClockReading(wall: wall)
        #endif
    }

    /// The kernel's boot id (36 characters and a newline), read with one `read(2)`: Foundation's file
    /// loading and `trimmingCharacters` cost `grove now` 1.6 M instructions, 7 % of its start.
    static let bootID: String? = {
        let file = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { return nil }
        defer { close(file) }
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = bytes.withUnsafeMutableBytes { readFile(file, $0.baseAddress, $0.count) }
        guard count > 0, count <= bytes.count else { return nil }
        let id = bytes[..<count].split(whereSeparator: { $0 == 0x0A || $0 == 0x0D || $0 == 0x20 || $0 == 0x09 }).first
        return id.map { String(decoding: $0, as: UTF8.self) }
    }()
}

/// `read(2)`, by a name `MachineClock.read()` does not hide.
private func readFile(_ file: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(file, buffer, count) }

extension Date {
    /// Milliseconds since 1970 (the store's instant format).
    public var groveMillis: Int64 { (timeIntervalSince1970 * 1000).groveClampedInt64 }
    public init(groveMillis: Int64) { self.init(timeIntervalSince1970: TimeInterval(groveMillis) / 1000) }
    /// This instant at millisecond precision, as stored.
    public var groveRoundedToMillis: Date { Date(groveMillis: groveMillis) }
}

extension TimeInterval {
    var groveMillis: Int64 { (self * 1000).groveClampedInt64 }
    init(groveMillis: Int64) { self = TimeInterval(groveMillis) / 1000 }
}

extension Double {
    /// Rounded to an integer; NaN is 0 and values beyond Int64 are clamped. Conversions that input can
    /// reach never trap: validation refuses such values first, and this is the net under it.
    var groveClampedInt64: Int64 {
        let value = rounded()
        guard value.isFinite else { return value.isNaN ? 0 : (value > 0 ? .max : .min) }
        // 2^63 is exactly representable; every Double below it (and at or above -2^63) fits in Int64.
        guard value < 0x1p63, value >= -0x1p63 else { return value > 0 ? .max : .min }
        return Int64(value)
    }
}
