import Foundation
import GRDB
import Testing

@testable import GroveStore

/// The kernel's word on commits, as the live layer and background sync hear it.
@Suite("Commit watcher")
struct CommitWatcherTests {
    /// A commit is a burst of writes to the `-wal` file (two per page); the watcher wakes once for the
    /// burst, not once per write. Each wake costs the server a look at the file (without the settling,
    /// these ten commits woke it 388 times). Counted, not timed: ten commits of 100 pages each, the
    /// next made once the watcher has confirmed the last.
    @Test func aCommitOfManyPagesWakesTheWatcherOnce() throws {
        let store = try WALStore()
        defer { store.remove() }
        let (path, writer) = (store.path, store.writer)
        let versions = try DataVersionWatcher(path: path)
        let watcher = try CommitWatcher(path: path)
        let confirmed = DispatchSemaphore(value: 0)
        let first = try versions.version()
        let watching = Thread {
            var seen = first
            while true {
                let wake = watcher.waitForCommit(timeout: nil) {
                    let version = (try? versions.version()) ?? seen
                    defer { seen = version }
                    return version != seen
                }
                guard wake != .stopped else { return }
                if wake == .written { confirmed.signal() }
            }
        }
        watching.start()
        defer { watcher.stop() }
        let commits = 10
        for _ in 0..<commits {
            try writer.inTransaction { db in
                for _ in 0..<100 { try db.execute(sql: "INSERT INTO note VALUES (zeroblob(4000))") }
                return .commit
            }
            // Causal: the watcher says it saw the commit (the minute only bounds a broken watcher).
            try #require(confirmed.wait(timeout: .now() + 60) == .success)
        }
        // One wake per commit, two when a busy machine stretches a burst past the settling time.
        #expect(watcher.wakesForWrites <= 2 * commits, "woken \(watcher.wakesForWrites) times for \(commits) commits")
    }
}
