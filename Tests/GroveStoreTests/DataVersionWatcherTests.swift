import Foundation
import GRDB
import Testing

@testable import GroveStore

/// The server asks `DataVersionWatcher` before every cached answer: it must see every commit at once,
/// and cost nothing while nobody commits.
@Suite("Data version watcher")
struct DataVersionWatcherTests {
    @Test("every commit of another connection is seen by the next question; quiet asks SQLite nothing")
    func everyCommitSeenQuietCostsNothing() throws {
        let store = try WALStore()
        defer { store.remove() }
        let writer = store.writer
        let watcher = try DataVersionWatcher(path: store.path)
        var seen = try watcher.version()
        // Counted: a thousand questions with no commit between them ask SQLite at most twice (on
        // opening, which maps the WAL-index, and once more to record its header).
        for _ in 0..<1000 { #expect(try watcher.version() == seen) }
        #expect(watcher.sqliteAsks <= 2, "asked SQLite \(watcher.sqliteAsks) times for 1,001 questions")

        for commit in 1...120 {
            if commit % 40 == 0 {
                // A checkpoint that empties the WAL restarts its header (new salts): SQLite counts that
                // as a change, and so does the watcher; the commit after it starts the WAL over.
                try writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
                seen = try watcher.version()
            }
            try writer.write { db in try db.execute(sql: "INSERT INTO note VALUES (?)", arguments: ["\(commit)"]) }
            let version = try watcher.version()
            #expect(version != seen, "commit \(commit) not seen")
            seen = version
            // A commit that changes nothing is no change either.
            try writer.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE; COMMIT") }
            #expect(try watcher.version() == seen)
        }
        // One question per commit, and a few more around the checkpoints; never one per question.
        #expect(watcher.sqliteAsks <= 2 + 120 + 3 * 3, "asked SQLite \(watcher.sqliteAsks) times")
    }
}
