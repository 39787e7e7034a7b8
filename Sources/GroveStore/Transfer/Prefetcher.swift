import Foundation

/// Runs a producer on a thread of its own, a few batches ahead of the consumer: an import reads and
/// checks the next rows of its file while the store writes the last ones (two cores, each busy).
///
/// Memory stays bounded (`capacity` batches of `batchSize` waiting at most). A producer's error
/// reaches the consumer in order, after the batches made before it. `finish()` stops the producer
/// and waits for its thread to end, so that nothing it reads (a file handle) is used after the
/// import returns.
///
/// `@unchecked Sendable`: every field is read and written under `condition`'s lock, except
/// `produce`, which only the producer's thread calls.
final class Prefetcher<Element: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var ready: [[Element]] = []
    private var failure: (any Error)?
    private var producerEnded = false
    private var stopped = false
    private let capacity: Int
    private let batchSize: Int
    private var produce: (() throws -> Element?)?

    /// Starts producing at once: `produce` returns nil at the end.
    init(capacity: Int = 8, batchSize: Int = 256, produce: @escaping () throws -> Element?) {
        self.capacity = max(1, capacity)
        self.batchSize = max(1, batchSize)
        self.produce = produce
        let thread = Thread { [self] in run() }
        thread.name = "grove-import-reader"
        thread.start()
    }

    /// The next batch, waiting for it; nil at the end. Rethrows the producer's error.
    func next() throws -> [Element]? {
        condition.lock()
        defer { condition.unlock() }
        while ready.isEmpty && !producerEnded { condition.wait() }
        if !ready.isEmpty {
            let batch = ready.removeFirst()
            condition.broadcast()
            return batch
        }
        if let failure { throw failure }
        return nil
    }

    /// Stops the producer (if still running) and waits until its thread is done.
    func finish() {
        condition.lock()
        stopped = true
        condition.broadcast()
        while !producerEnded { condition.wait() }
        ready.removeAll()
        condition.unlock()
    }

    private func run() {
        var batch: [Element] = []
        batch.reserveCapacity(batchSize)
        var error: (any Error)?
        do {
            while let produce, let element = try produce() {
                batch.append(element)
                if batch.count == batchSize {
                    guard hand(batch) else { break }
                    batch.removeAll(keepingCapacity: true)
                }
            }
            if !batch.isEmpty { _ = hand(batch) }
        } catch let thrown {
            // What was made before the error goes first, as it came.
            if !batch.isEmpty { _ = hand(batch) }
            error = thrown
        }
        condition.lock()
        failure = error
        producerEnded = true
        produce = nil
        condition.broadcast()
        condition.unlock()
    }

    /// Queues a batch, waiting while `capacity` are waiting; false once the consumer stopped.
    private func hand(_ batch: [Element]) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while ready.count >= capacity && !stopped { condition.wait() }
        guard !stopped else { return false }
        ready.append(batch)
        condition.broadcast()
        return true
    }
}
