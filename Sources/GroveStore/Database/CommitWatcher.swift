import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Wakes a thread when any process writes to a store file, without polling.
///
/// On Linux the kernel says so (inotify on the file's folder: the database and its `-wal` file, which
/// every commit in WAL mode writes); a waiting thread sleeps in `poll(2)` and costs nothing while the
/// store is quiet. Elsewhere (macOS builds) it falls back to looking every quarter of a second. A wake-up
/// means "something may have changed": `PRAGMA data_version` then says whether a commit did.
public final class CommitWatcher: @unchecked Sendable {
    private let names: Set<String>
    #if canImport(Glibc)
        private let inotify: Int32
        /// A pipe whose write end `poke()` and `stop()` write to, so that a waiting thread returns at once.
        private let wakeRead: Int32, wakeWrite: Int32
    #endif
    private let lock = NSLock()
    private var stopped = false
    private var writtenWakes = 0

    /// How long a wait lets a burst of writes pass before it reads them: longer than a commit of a few
    /// hundred pages takes to write, short beside anything a page or a sync round waits for.
    static let settleMicroseconds: UInt32 = 4_000

    /// How many waits the store's files ended (`.written`): tests count them, one burst, one wake.
    var wakesForWrites: Int { lock.withLock { writtenWakes } }

    /// Watches the store at `path` (its folder must exist).
    public init(path: String) throws {
        let url = URL(fileURLWithPath: path)
        let file = url.lastPathComponent
        names = [file, file + "-wal", file + "-journal"]
        #if canImport(Glibc)
            inotify = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
            guard inotify >= 0 else { throw StoreError.watch(path, errno) }
            let mask = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_CREATE | IN_MOVED_TO | IN_DELETE)
            guard inotify_add_watch(inotify, url.deletingLastPathComponent().path, mask) >= 0 else {
                let error = errno
                close(inotify)
                throw StoreError.watch(path, error)
            }
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else {
                let error = errno
                close(inotify)
                throw StoreError.watch(path, error)
            }
            wakeRead = ends[0]
            wakeWrite = ends[1]
            _ = fcntl(wakeRead, F_SETFL, fcntl(wakeRead, F_GETFL) | O_NONBLOCK)
            _ = fcntl(wakeWrite, F_SETFL, fcntl(wakeWrite, F_GETFL) | O_NONBLOCK)
        #endif
    }

    deinit {
        #if canImport(Glibc)
            close(inotify)
            close(wakeRead)
            close(wakeWrite)
        #endif
    }

    /// What ended a wait.
    public enum Wake: Sendable, Equatable {
        /// The store's files were written (by this process or another).
        case written
        /// `poke()` was called.
        case poked
        /// The timeout passed with nothing written.
        case timedOut
        /// `stop()` was called: the watcher is done.
        case stopped
    }

    /// Blocks the calling thread (never a thread of Swift's cooperative pool) until the store is
    /// written, `poke()` or `stop()` is called, or `timeout` passes (nil: no limit).
    public func wait(timeout: Duration?) -> Wake {
        if isStopped { return .stopped }
        #if canImport(Glibc)
            var fds = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            let milliseconds =
                timeout.map { Int32(clamping: $0.components.seconds * 1000 + $0.components.attoseconds / 1_000_000_000_000_000) } ?? -1
            let ready = poll(&fds, 2, milliseconds)
            if isStopped { return .stopped }
            guard ready > 0 else { return .timedOut }
            var poked = false
            if fds[1].revents != 0 {
                var sink = [UInt8](repeating: 0, count: 64)
                while read(wakeRead, &sink, sink.count) > 0 {}
                poked = true
            }
            var written = false
            if fds[0].revents != 0 {
                // A commit reaches the `-wal` file as a burst of writes, two per page, and the kernel
                // reports each one. Read at once, the first event would wake this thread again for every
                // write after it (and the waiter would look before the commit is even visible). Let the
                // burst pass: the kernel folds identical events queued meanwhile into one.
                usleep(Self.settleMicroseconds)
                written = drainEvents()
                if written { lock.withLock { writtenWakes += 1 } }
            }
            return written ? .written : poked ? .poked : .timedOut
        #else
            Thread.sleep(
                forTimeInterval: min(0.25, timeout.map { Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18 } ?? 0.25)
            )
            return isStopped ? .stopped : .written
        #endif
    }

    /// Waits for a commit that `confirmed()` sees (it asks `PRAGMA data_version`, or the outbox), a
    /// `poke()`, `stop()`, or `timeout`.
    ///
    /// The kernel reports a commit's first write to the `-wal` file; the commit becomes visible a moment
    /// later (after its last frame, or an fsync). So a write not yet confirmed is asked about again after
    /// 5, 10, 20 … 640 ms: a few looks per write, none while nothing is written.
    public func waitForCommit(timeout: Duration?, confirmed: () -> Bool) -> Wake {
        let clock = ContinuousClock()
        let deadline = timeout.map { clock.now + $0 }
        var rechecks: [Duration] = []
        while true {
            let remaining = deadline.map { max(.zero, clock.now.duration(to: $0)) }
            let limit = [remaining, rechecks.first].compactMap { $0 }.min()
            switch wait(timeout: limit) {
            case .written:
                if confirmed() { return .written }
                rechecks = [5, 10, 20, 40, 80, 160, 320, 640].map { .milliseconds($0) }
            case .timedOut:
                if !rechecks.isEmpty {
                    rechecks.removeFirst()
                    if confirmed() { return .written }
                }
                if let deadline, clock.now >= deadline { return .timedOut }
            case .poked: return .poked
            case .stopped: return .stopped
            }
        }
    }

    /// Ends the current wait (it returns `.poked`), e.g. so that the waiter looks at something else.
    public func poke() {
        #if canImport(Glibc)
            var byte: UInt8 = 1
            _ = write(wakeWrite, &byte, 1)
        #endif
    }

    /// Ends every wait for good.
    public func stop() {
        lock.withLock { stopped = true }
        poke()
    }

    private var isStopped: Bool { lock.withLock { stopped } }

    #if canImport(Glibc)
        /// Reads every pending event; true when one names the store's files.
        private func drainEvents() -> Bool {
            var relevant = false
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
                guard count > 0 else { return relevant }
                var offset = 0
                let header = MemoryLayout<inotify_event>.size
                while offset + header <= count {
                    let length = buffer.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)) }
                    let nameStart = offset + header, nameEnd = min(count, nameStart + length)
                    let name = String(decoding: buffer[nameStart..<nameEnd].prefix { $0 != 0 }, as: UTF8.self)
                    if names.contains(name) { relevant = true }
                    offset = nameStart + length
                }
            }
        }
    #endif
}
