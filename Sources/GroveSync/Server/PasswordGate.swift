import Foundation
import GroveHTTP

#if canImport(Glibc)
    import Glibc
#endif

/// Where password checks (bcrypt, ~60 ms each here) wait and run: never on Swift's cooperative pool
/// (a crowd of guesses would stall every push and pull), on `workers` threads of their own at a lower
/// priority, and in three lanes so that a flood of guesses cannot queue a right password behind itself:
///
/// - `trusted`: an address that logged in to this account before (`LoginThrottle`) goes first;
/// - `fresh`: an address with no failure in the throttle's window comes next, the newest first;
/// - `failing`: an address that has guessed wrong waits behind both.
///
/// Each address has at most one check waiting or running (a second attempt sent alongside is told to
/// retry), and the two lower lanes hold at most `capacity` checks between them: past that, an attempt
/// is refused before anything is hashed. A guesser with many addresses therefore fills the `failing`
/// lane after its first round, while its owner's laptop, or a first login from a clean address, is
/// checked next.
///
/// A name no account has costs no hash at all (`decoy`): its answer waits as long as a real check
/// takes now, on a timer, so the time still tells nothing, and guesses at made-up names (the cheap
/// way to flood) take nothing from the workers.
public final class PasswordGate: @unchecked Sendable {
    /// A check's place in the queue, first to last.
    public enum Lane: Int, CaseIterable, Sendable {
        case trusted, fresh, failing
    }

    /// Checks run at once: one core's worth less than the machine has (at least one), so that pushes
    /// and pulls always have a core bcrypt does not take.
    public let workers: Int
    /// Checks the two lower lanes hold at most.
    public let capacity: Int
    private let condition = NSCondition()
    private var lanes: [[() -> Void]] = Lane.allCases.map { _ in [] }
    private var started = 0
    private var busyAddresses: Set<String> = []
    /// How long a real check takes now, from its arrival to its answer (a moving average); nil until
    /// the first.
    private var typical: Duration?

    /// A gate; `workers` at most the cores, `capacity` what waits in the lower lanes.
    public init(workers: Int = max(1, ProcessInfo.processInfo.activeProcessorCount - 1), capacity: Int = 256) {
        self.workers = max(1, workers)
        self.capacity = capacity
    }

    /// Checks waiting in the lanes now (for tests and metrics).
    public var waiting: Int { condition.withLock { lanes.reduce(0) { $0 + $1.count } } }

    /// Runs `check` in `lane` once a worker is free; throws `loginsBusy` at once when `address` has a
    /// check waiting or running already, or when the lower lanes are full.
    public func run(
        lane: Lane, address: String?, _ check: @escaping @Sendable () -> Result<Bool, SyncServerError>
    ) async throws(SyncServerError) -> Bool {
        let clock = ContinuousClock(), arrived = clock.now
        let result: Result<Bool, SyncServerError> = await withCheckedContinuation { continuation in
            let admitted = condition.withLock { () -> Bool in
                if let address, busyAddresses.contains(address) { return false }
                if lane != .trusted, lanes[Lane.fresh.rawValue].count + lanes[Lane.failing.rawValue].count >= capacity { return false }
                if let address { busyAddresses.insert(address) }
                lanes[lane.rawValue].append { [self] in
                    let result = check()
                    let took = clock.now - arrived
                    condition.withLock {
                        if let address { busyAddresses.remove(address) }
                        typical = typical.map { $0 * 0.75 + took * 0.25 } ?? took
                    }
                    continuation.resume(returning: result)
                }
                if started < workers {
                    started += 1
                    let thread = Thread { [self] in work() }
                    thread.name = "grove.sync.passwords"
                    thread.start()
                }
                condition.signal()
                return true
            }
            if !admitted { continuation.resume(returning: .failure(.loginsBusy(retryAfter: 1))) }
        }
        return try result.get()
    }

    /// Answers for a name no account has: waits as long as a real check takes now, then runs `record`
    /// (which counts the failure) — no worker, no hash. The one-attempt-per-address rule holds as in
    /// `run`. Before any real check has been timed, `check` runs in `lane` like a real one.
    public func decoy(
        lane: Lane, address: String?, record: @escaping @Sendable () -> Result<Bool, SyncServerError>,
        check: @escaping @Sendable () -> Result<Bool, SyncServerError>
    ) async throws(SyncServerError) -> Bool {
        enum Admission { case busy, untimed, wait(Duration) }
        let admission = condition.withLock { () -> Admission in
            if let address, busyAddresses.contains(address) { return .busy }
            guard let typical else { return .untimed }
            if let address { busyAddresses.insert(address) }
            return .wait(typical)
        }
        let wait: Duration
        switch admission {
        case .busy: throw .loginsBusy(retryAfter: 1)
        case .untimed: return try await run(lane: lane, address: address, check)
        case .wait(let typical): wait = typical
        }
        // Between 90 % and 110 % of a real check: its own time wanders that much too.
        try? await Task.sleep(for: wait * Double.random(in: 0.9...1.1))
        if let address { _ = condition.withLock { busyAddresses.remove(address) } }
        return try record().get()
    }

    /// A worker, on a thread of its own at a lower priority (nice 10): bcrypt yields the cores to
    /// whatever else the server does, and no pooled thread that later serves a push is left reniced.
    /// It takes the first check of the first lane that has one, sleeps while there is none, and ends
    /// after a minute idle.
    private func work() {
        #if os(Linux)
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
        #endif
        while true {
            let next = condition.withLock { () -> (() -> Void)? in
                while true {
                    if let index = lanes.firstIndex(where: { !$0.isEmpty }) {
                        // Newest first among fresh addresses: a person's first login from a new phone
                        // is not queued behind the first guesses of every address a guesser has.
                        return index == Lane.fresh.rawValue ? lanes[index].removeLast() : lanes[index].removeFirst()
                    }
                    // Idle for a minute: the thread ends (the next check starts another).
                    if !condition.wait(until: Date().addingTimeInterval(60)), lanes.allSatisfy(\.isEmpty) {
                        started -= 1
                        return nil
                    }
                }
            }
            guard let next else { return }
            next()
        }
    }
}
