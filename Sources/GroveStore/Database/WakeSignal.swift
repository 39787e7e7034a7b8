import Foundation
import GroveCore

/// Wakes one sleeping task when something happened (a commit, a poke), instead of a poll.
///
/// A signal given while nobody waits is kept (one, coalesced) for the next `wait()`. Waiting ends at a
/// signal or when the waiting task is cancelled, never by timeout alone: `wait(upTo:on:)` races it
/// against an injected clock, so tests drive it with a test clock.
public final class WakeSignal: @unchecked Sendable {
    private let lock = NSLock()
    private var pending = false
    private var waiters: [UUID: CheckedContinuation<Void, Never>] = [:]

    /// After a signal, how long `wait(upTo:on:)` lets pass before it returns (see there).
    public let quiet: Duration

    /// `quiet`: zero for a waiter that must hear every signal at once (tests, the live stream).
    public init(quiet: Duration = .zero) { self.quiet = quiet }

    /// Wakes every waiter, or the next one to wait.
    public func signal() {
        let woken = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            guard !waiters.isEmpty else {
                pending = true
                return []
            }
            defer { waiters.removeAll() }
            return Array(waiters.values)
        }
        for waiter in woken { waiter.resume() }
    }

    /// Returns at the next signal (at once if one came since the last wait), or when the task is cancelled.
    public func wait() async {
        let id = UUID.random()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = lock.withLock { () -> Bool in
                    if pending || Task.isCancelled {
                        pending = false
                        return true
                    }
                    waiters[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            lock.withLock { waiters.removeValue(forKey: id) }?.resume()
        }
    }

    /// Returns at the next signal or after `duration` on `clock`, whichever comes first; throws
    /// `CancellationError` when the task is cancelled.
    ///
    /// With a `quiet`, after a signal `quiet` more passes before it returns, and the signals given
    /// meanwhile fold into that one: a burst of commits (a client writing as fast as it can) wakes the
    /// waiter once per `quiet`, not once per commit. What the waiter then reads includes all of them.
    public func wait<C: Clock>(upTo duration: Duration, on clock: C) async throws where C.Duration == Duration {
        let signalled = try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                try await clock.sleep(for: duration)
                return false
            }
            group.addTask {
                await self.wait()
                return true
            }
            let first = try await group.next() ?? false
            group.cancelAll()
            return first
        }
        try Task.checkCancellation()
        guard signalled, quiet > .zero else { return }
        try await clock.sleep(for: quiet)
        lock.withLock { pending = false }
    }
}
