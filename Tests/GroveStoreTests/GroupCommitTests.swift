import Foundation
import GRDB
import GroveCore
import Testing

@testable import GroveStore

/// Writes that arrive together commit together, yet each succeeds or fails alone.
@Suite("Group commit", .serialized)
struct GroupCommitTests {
    /// A store whose first write is held open until `release` is signalled, and `count` more writes
    /// queued behind it (thread `i` writes key `k<i>`; `body` may add to or replace that write).
    /// Returns each queued write's outcome and the number of commits the store made.
    static func queueBehindAHeldWrite(
        _ count: Int, body: @escaping @Sendable (Int, Database) throws -> Void
    ) throws -> (store: AppDatabase, outcomes: [Result<Void, any Error>], commits: Int) {
        let (store, _, _) = try makeFileStore()
        let commits = Counter()
        store.onCommit { commits.add() }
        let entered = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let holder = Thread {
            _ = try? store.write { db in
                try db.execute(sql: "INSERT INTO grove_meta (key, value) VALUES ('held', '1')")
                entered.signal()
                release.wait()
            }
        }
        holder.start()
        entered.wait()
        let outcomes = Outcomes(count)
        let done = DispatchGroup()
        for i in 0..<count {
            done.enter()
            Thread {
                outcomes.set(i, Result { try store.write { db in try body(i, db) } })
                done.leave()
            }.start()
        }
        // Every write is queued behind the held one before it commits.
        let deadline = Date().addingTimeInterval(30)
        while store.groupCommit.queued < count && Date() < deadline { usleep(1_000) }
        #expect(store.groupCommit.queued == count)
        release.signal()
        done.wait()
        return (store, outcomes.all, commits.value)
    }

    static func keys(_ store: AppDatabase) throws -> Set<String> {
        Set(try store.writer.read { try String.fetchAll($0, sql: "SELECT key FROM grove_meta WHERE key LIKE 'k%' OR key = 'held'") })
    }

    @Test func writesQueuedTogetherShareOneCommitAndAFailureRollsBackAlone() throws {
        let failing = 3
        let (store, outcomes, commits) = try Self.queueBehindAHeldWrite(8) { i, db in
            try db.execute(sql: "INSERT INTO grove_meta (key, value) VALUES (?, 'x')", arguments: ["k\(i)"])
            if i == failing { throw InvalidField("name", "refused on purpose") }
        }
        #expect(store.groupCommit.largestBatch == 8)
        #expect(commits == 2, "the held write's commit, then one for the eight queued behind it")
        for (i, outcome) in outcomes.enumerated() {
            switch outcome {
            case .success: #expect(i != failing)
            case .failure(let error): #expect(i == failing && "\(error)".contains("refused on purpose"))
            }
        }
        var expected = Set((0..<8).filter { $0 != failing }.map { "k\($0)" })
        expected.insert("held")
        #expect(try Self.keys(store) == expected, "the failed write's row rolled back with it, and only it")
    }

    /// A schema rule broken by one write is that write's validation error, not its neighbours'.
    @Test func aConstraintViolationInABatchIsThatWritesOwnError() throws {
        let (store, outcomes, _) = try Self.queueBehindAHeldWrite(4) { i, db in
            // Two writes claim the same key: the second of them to run breaks the primary key.
            try db.execute(sql: "INSERT INTO grove_meta (key, value) VALUES (?, 'x')", arguments: [i < 2 ? "k0" : "k\(i)"])
        }
        #expect(outcomes.filter { if case .failure = $0 { true } else { false } }.count == 1)
        #expect(try Self.keys(store) == ["held", "k0", "k2", "k3"])
    }

    /// When SQLite ends the whole transaction (a full disk does), nothing of the batch stands and every
    /// caller hears so: none is told its write was saved.
    @Test func aTransactionLostMidBatchFailsEveryWriteInIt() throws {
        // The first write of the batch to run ends the transaction; the others run after it.
        let first = Counter()
        let (store, outcomes, _) = try Self.queueBehindAHeldWrite(4) { i, db in
            try db.execute(sql: "INSERT INTO grove_meta (key, value) VALUES (?, 'x')", arguments: ["k\(i)"])
            if first.add() == 1 { try db.execute(sql: "ROLLBACK") }
        }
        for outcome in outcomes {
            if case .success = outcome { Issue.record("a write was acknowledged though its transaction was rolled back") }
        }
        #expect(try Self.keys(store) == ["held"])
        // The store still writes afterwards.
        try store.write { db in try db.execute(sql: "INSERT INTO grove_meta (key, value) VALUES ('after', '1')") }
    }

    /// One writer alone runs as a plain transaction: an error rolls back everything it did.
    @Test func aLoneWriteIsItsOwnTransaction() throws {
        let (store, _, _) = try makeFileStore()
        #expect(throws: InvalidField.self) {
            try store.write { db in
                try db.execute(sql: "INSERT INTO grove_meta (key, value) VALUES ('k1', 'x')")
                throw InvalidField("name", "no")
            }
        }
        #expect(try Self.keys(store).isEmpty)
        #expect(store.groupCommit.largestBatch == 1)
    }
}

/// Thread-safe tallies for the tests above.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    /// Adds one; returns the new count.
    @discardableResult func add() -> Int {
        lock.withLock {
            count += 1
            return count
        }
    }
    var value: Int { lock.withLock { count } }
}

private final class Outcomes: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Result<Void, any Error>?]
    init(_ count: Int) { results = Array(repeating: nil, count: count) }
    func set(_ i: Int, _ result: Result<Void, any Error>) { lock.withLock { results[i] = result } }
    var all: [Result<Void, any Error>] { lock.withLock { results.compactMap { $0 } } }
}
