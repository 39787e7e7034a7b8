import Foundation
import GroveStore

/// The stores a command opens in a `grove` process that exits right after it: closed when the
/// command is done, and kept (never released) until the process ends.
///
/// Releasing a store's last reference disposes of GRDB's dispatch queue, which starts a libdispatch
/// worker thread only to finish the disposal, and removes the queue's observers from
/// `NotificationCenter`, whose casts cost the Swift runtime two scans of every protocol conformance
/// in the binary (~1.3 M instructions): all of it after the answer is printed, in a process about to
/// end. Closing still folds the WAL into the file and removes it, as at any close.
final class StoresAtExit: @unchecked Sendable {
    /// The collector of the command running in this task, if it runs inside `closingAtExit`. A task
    /// local: a test's command keeps its own stores, never another test's.
    @TaskLocal private static var current: StoresAtExit?

    /// Every collector's stores, kept until the process exits.
    nonisolated(unsafe) private static var kept: [AppDatabase] = []
    private static let lock = NSLock()

    private var opened: [AppDatabase] = []

    /// Runs `body`, the whole of a command in a process that ends soon after; every store it opens
    /// (`keep`) is closed when it returns, and never released.
    static func closingAtExit<T>(_ body: () throws -> T) rethrows -> T {
        let collector = StoresAtExit()
        defer {
            let stores = lock.withLock {
                kept += collector.opened
                return collector.opened
            }
            for store in stores { try? store.close() }
        }
        return try $current.withValue(collector) { try body() }
    }

    /// Keeps `store` until the process exits when the running command is inside `closingAtExit`.
    static func keep(_ store: AppDatabase) {
        guard let collector = current else { return }
        lock.withLock { collector.opened.append(store) }
    }
}
