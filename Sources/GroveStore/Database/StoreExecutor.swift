import Foundation

/// Threads of Grove's own for work that waits on SQLite.
///
/// GRDB's reads and writes block their thread (on a lock, a busy database, the disk). Swift's
/// cooperative pool has one thread per core — two here — so a server handler that blocks there stalls
/// every other request. Handlers and `AppDatabase.run` prefer this executor instead: a slow query
/// holds one of its threads and nothing else.
public final class StoreExecutor: TaskExecutor, @unchecked Sendable {
    /// The process's store threads.
    public static let shared = StoreExecutor(threads: 16)

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var head = 0

    /// Starts `threads` worker threads that live as long as the process.
    public init(threads: Int) {
        for index in 0..<max(1, threads) {
            let thread = Thread { [unowned self] in work() }
            thread.name = "grove.store.\(index)"
            thread.start()
        }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.unlock()
        // Signalled after the unlock: a thread woken while the lock is still held would only wake to
        // wait for it (a second futex call and a second switch on every request).
        condition.signal()
    }

    private func work() {
        while true {
            condition.lock()
            while head == jobs.count { condition.wait() }
            let job = jobs[head]
            head += 1
            if head == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                head = 0
            }
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}

extension AppDatabase {
    /// Runs `body` with this store on the store's own threads, never blocking Swift's cooperative pool.
    public func run<T: Sendable>(_ body: @Sendable (AppDatabase) throws -> T) async throws -> T {
        try await withTaskExecutorPreference(StoreExecutor.shared) { try body(self) }
    }

    /// Runs asynchronous work that calls the store along the way (a sync round: store, network,
    /// store) with the store's threads preferred, so that its blocking calls never hold the pool.
    public func runAsync<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await withTaskExecutorPreference(StoreExecutor.shared) { try await body() }
    }
}
