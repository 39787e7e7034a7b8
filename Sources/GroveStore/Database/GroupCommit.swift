import Foundation
import GRDB

/// Commits the writes that arrive together in one transaction, so that they share one `fsync`.
///
/// With `synchronous = FULL` every commit waits for the disk, and a busy server's writes would queue
/// behind each other's waits. Here the first writer to find no commit under way leads: it takes every
/// write queued so far (at most `maximumBatch`), runs each in a savepoint of its own — a write that
/// fails rolls back alone and only its caller hears the error — commits once, then wakes every caller
/// with its own outcome. Writes that arrive meanwhile form the next batch. No caller returns before
/// the commit that holds its write is durable, so nothing acknowledged can be lost; one writer alone
/// (a CLI command) is a batch of one and runs exactly as a plain transaction, with no savepoint.
final class GroupCommit: @unchecked Sendable {
    /// The most writes one transaction holds: a bound on how long the first of them waits.
    static let maximumBatch = 64

    private let condition = NSCondition()
    private var queue: [Entry] = []
    private var leading = false
    private var largest = 0

    /// Writes waiting for the next batch.
    var queued: Int {
        condition.lock()
        defer { condition.unlock() }
        return queue.count
    }

    /// The most writes one transaction has held so far.
    var largestBatch: Int {
        condition.lock()
        defer { condition.unlock() }
        return largest
    }

    /// One caller's write and, once its batch has committed or failed, what came of it.
    private final class Entry: @unchecked Sendable {
        let updates: (Database) throws -> Void
        var outcome: Result<Void, any Error>?
        init(_ updates: @escaping (Database) throws -> Void) { self.updates = updates }
    }

    /// Runs `updates` in a transaction of `writer`, possibly shared with other callers' writes, and
    /// returns once that transaction has committed (or throws the write's own error, or the commit's).
    func write(_ writer: any DatabaseWriter, _ updates: (Database) throws -> Void) throws {
        // Safe: this call blocks until the closure has run (or never will), so it outlives no scope.
        try withoutActuallyEscaping(updates) { updates in
            let entry = Entry(updates)
            condition.lock()
            queue.append(entry)
            while true {
                while entry.outcome == nil && leading { condition.wait() }
                if let outcome = entry.outcome {
                    condition.unlock()
                    return try outcome.get()
                }
                // No commit under way and ours not yet made: lead the next batch (ours is in it, or
                // in a later one this thread leads too).
                leading = true
                let batch = Array(queue.prefix(Self.maximumBatch))
                queue.removeFirst(batch.count)
                largest = max(largest, batch.count)
                condition.unlock()
                let outcomes = Self.commit(batch, in: writer)
                condition.lock()
                for (entry, outcome) in zip(batch, outcomes) { entry.outcome = outcome }
                leading = false
                condition.broadcast()
            }
        }
    }

    /// Runs `batch` in one transaction; each write's outcome, or the commit's error for all of them.
    private static func commit(_ batch: [Entry], in writer: any DatabaseWriter) -> [Result<Void, any Error>] {
        var outcomes: [Result<Void, any Error>] = []
        do {
            try writer.write { db in
                if batch.count == 1 {
                    try batch[0].updates(db)
                    outcomes = [.success(())]
                    return
                }
                for entry in batch {
                    do {
                        try db.inSavepoint {
                            try entry.updates(db)
                            return .commit
                        }
                        outcomes.append(.success(()))
                    } catch {
                        // Some errors (a full disk, I/O) make SQLite roll back the whole transaction:
                        // then nothing of the batch stands, and every caller must hear it. (GRDB
                        // refuses every later statement of an aborted transaction too; this stops at
                        // once rather than running the rest to fail.)
                        guard db.isInsideTransaction else { throw error }
                        outcomes.append(.failure(error))
                    }
                }
            }
            return outcomes
        } catch {
            // Nothing was committed: the transaction (or its commit) failed for every write in it.
            return batch.map { _ in .failure(error) }
        }
    }
}
