import Foundation

/// Where password checks (bcrypt, ~60 ms each here) wait and run: never on Swift's cooperative pool
/// (a crowd of guesses would stall every push and pull), on at most `workers` threads, and in three
/// lanes so that a flood of guesses cannot queue a right password behind itself:
///
/// - `trusted`: an address that logged in to this account before (`LoginThrottle`) goes first;
/// - `fresh`: an address with no failure in the throttle's window comes next;
/// - `failing`: an address that has guessed wrong waits behind both.
///
/// Each address has at most one check waiting or running (a second attempt sent alongside is told to
/// retry), and the two lower lanes hold at most `capacity` checks between them: past that, an attempt
/// is refused before anything is hashed. A guesser with many addresses therefore fills the `failing`
/// lane after its first round, while its owner's laptop, or a first login from a clean address, is
/// checked next.
public final class PasswordGate: @unchecked Sendable {
    /// A check's place in the queue, first to last.
    public enum Lane: Int, CaseIterable, Sendable {
        case trusted, fresh, failing
    }

    /// Checks run at once (bcrypt is CPU: no more than the cores).
    public let workers: Int
    /// Checks the two lower lanes hold at most.
    public let capacity: Int
    private let lock = NSLock()
    private var lanes: [[() -> Void]] = Lane.allCases.map { _ in [] }
    private var running = 0
    private var busyAddresses: Set<String> = []
    private let queue = DispatchQueue(label: "grove.sync.passwords", attributes: .concurrent)

    /// A gate; `workers` at most the cores, `capacity` what waits in the lower lanes.
    public init(workers: Int = max(1, min(2, ProcessInfo.processInfo.activeProcessorCount)), capacity: Int = 256) {
        self.workers = workers
        self.capacity = capacity
    }

    /// Checks waiting in the lanes now (for tests and metrics).
    public var waiting: Int { lock.withLock { lanes.reduce(0) { $0 + $1.count } } }

    /// Runs `check` in `lane` once a worker is free; throws `loginsBusy` at once when `address` has a
    /// check waiting or running already, or when the lower lanes are full.
    public func run(
        lane: Lane, address: String?, _ check: @escaping @Sendable () -> Result<Bool, SyncServerError>
    ) async throws(SyncServerError) -> Bool {
        let result: Result<Bool, SyncServerError> = await withCheckedContinuation { continuation in
            let admitted = lock.withLock { () -> Bool in
                if let address, busyAddresses.contains(address) { return false }
                if lane != .trusted, lanes[Lane.fresh.rawValue].count + lanes[Lane.failing.rawValue].count >= capacity { return false }
                if let address { busyAddresses.insert(address) }
                lanes[lane.rawValue].append { [self] in
                    let result = check()
                    if let address { _ = lock.withLock { busyAddresses.remove(address) } }
                    continuation.resume(returning: result)
                }
                if running < workers {
                    running += 1
                    queue.async { self.drain() }
                }
                return true
            }
            if !admitted { continuation.resume(returning: .failure(.loginsBusy(retryAfter: 1))) }
        }
        return try result.get()
    }

    /// A worker: takes the first check of the first lane that has one until none is left.
    private func drain() {
        while true {
            let next = lock.withLock { () -> (() -> Void)? in
                guard let index = lanes.firstIndex(where: { !$0.isEmpty }) else {
                    running -= 1
                    return nil
                }
                return lanes[index].removeFirst()
            }
            guard let next else { return }
            next()
        }
    }
}
