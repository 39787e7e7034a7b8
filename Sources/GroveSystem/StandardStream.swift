import Foundation

#if canImport(Glibc)
    import Glibc
    private let systemWrite = Glibc.write
#elseif canImport(Darwin)
    import Darwin
    private let systemWrite = Darwin.write
#endif

/// Standard output and error written with `write(2)`, where a write that fails is dropped and counted.
///
/// `FileHandle.write(_:)` traps when the write fails (a log on a full disk, standard output on
/// `/dev/full`, a reader that went away): a server must never die of a log line. Here a failed write is
/// given up after retrying interrupted and partial writes, counted in `dropped`, and the caller goes on.
public enum StandardStream: Sendable {
    case output
    case error

    var descriptor: Int32 {
        switch self {
        case .output: STDOUT_FILENO
        case .error: STDERR_FILENO
        }
    }

    /// Writes `data` whole, or drops what is left of it when the stream refuses (counted in `dropped`).
    /// Returns whether all of it was written.
    @discardableResult
    public func write(_ data: Data) -> Bool {
        let written = data.withUnsafeBytes { buffer -> Bool in
            guard var pointer = buffer.baseAddress else { return true }
            var left = buffer.count
            while left > 0 {
                let count = systemWrite(descriptor, pointer, left)
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                if count == 0 { return false }
                pointer += count
                left -= count
            }
            return true
        }
        if !written { Self.droppedCount.add(1) }
        return written
    }

    /// For a server: a reader of its output that goes away (a closed pipe) fails the write with EPIPE,
    /// dropped like any other, instead of killing the process with SIGPIPE.
    public static func keepRunningWhenReadersLeave() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Writes that could not be made since the process started (logs on a full disk, a closed pipe).
    public static var dropped: Int { droppedCount.value }

    private static let droppedCount = Counter()

    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        var value: Int { lock.withLock { count } }
        func add(_ n: Int) { lock.withLock { count += n } }
    }
}
