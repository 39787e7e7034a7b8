import Foundation

/// Slows password guessing, in both servers (SYNC.md "the hosted server"; `grove serve`'s login): failed password checks are counted per
/// account and per client address; past a few, that account or address is refused with 429 and
/// `Retry-After` *before* any password is checked, for a time that doubles with each further failure
/// (up to 15 minutes). Counts end with their window; a success clears nothing (a guesser with an
/// account of its own cannot wipe its address's count by logging in to it between guesses). An
/// address that logged in to an account before is not held back by that account's count: someone
/// guessing at a name cannot lock its owner out of the devices it already uses.
///
/// The check is cheap and comes first, so that guessers neither learn anything nor burn the bcrypt
/// time that pushes and pulls need. The sync server checks again, verifies and counts in one step in
/// its `PasswordGate`, whose lane comes from here (`standing`): an address has one attempt in the gate
/// at a time, so its guesses sent at once cannot all pass before the first of them is counted.
public final class LoginThrottle: @unchecked Sendable {
    /// Failures allowed in a window before the first wait.
    public let freeFailures: Int
    /// How long failures are remembered.
    public let window: TimeInterval
    static let maxWait: TimeInterval = 15 * 60
    /// The most keys remembered (the oldest go first): an attacker with many addresses cannot grow it.
    static let capacity = 100_000

    private struct Record {
        var failures: Int
        var first: Date
        var blockedUntil: Date?
    }

    private let lock = NSLock()
    private var records: [String: Record] = [:]
    /// "user|address" pairs that logged in, and when last: trusted for `trustFor`.
    private var trusted: [String: Date] = [:]
    static let trustFor: TimeInterval = 30 * 24 * 3600

    public init(freeFailures: Int = 5, window: TimeInterval = 15 * 60) {
        self.freeFailures = freeFailures
        self.window = window
    }

    /// The seconds the account or the address must wait before its next attempt; nil when it need not.
    public func wait(user: String, address: String?, now: Date) -> Int? {
        let wait = lock.withLock { () -> TimeInterval in
            var keys = Self.keys(user: user, address: address)
            if let address, let since = trusted[Self.pair(user, address)], now.timeIntervalSince(since) < Self.trustFor {
                keys.removeAll { $0.hasPrefix("user:") }
            }
            return keys.map { key -> TimeInterval in
                guard let until = records[key]?.blockedUntil else { return 0 }
                return max(0, until.timeIntervalSince(now))
            }.max() ?? 0
        }
        return wait > 0 ? Int(min(wait, Self.maxWait).rounded(.up)) : nil
    }

    /// Where an address stands with an account, best first.
    public enum Standing: Sendable {
        /// It logged in to this account before.
        case trusted
        /// No failure in the window.
        case clean
        /// It guessed wrong in the window.
        case failing
    }

    /// How `address` stands with `user` now.
    public func standing(user: String, address: String?, now: Date) -> Standing {
        guard let address else { return .clean }
        return lock.withLock {
            if let since = trusted[Self.pair(user, address)], now.timeIntervalSince(since) < Self.trustFor { return .trusted }
            let failing = records["address:" + address].map { now.timeIntervalSince($0.first) < window } ?? false
            return failing ? .failing : .clean
        }
    }

    /// Counts a wrong password (or unknown user) for both keys.
    public func failed(user: String, address: String?, now: Date) {
        lock.withLock {
            if records.count >= Self.capacity { records = records.filter { now.timeIntervalSince($0.value.first) < window } }
            for key in Self.keys(user: user, address: address) {
                var record = records[key].flatMap { now.timeIntervalSince($0.first) < window ? $0 : nil } ?? Record(failures: 0, first: now)
                record.failures += 1
                // From the `freeFailures`th on: 1 s, then 2, 4, 8… up to 15 minutes.
                let over = record.failures - freeFailures
                if over >= 0 { record.blockedUntil = now.addingTimeInterval(min(Self.maxWait, pow(2, Double(min(over, 20))))) }
                records[key] = record
            }
        }
    }

    /// A right password: this address is trusted for this account from now on (counts stay as they are).
    public func succeeded(user: String, address: String?, now: Date) {
        guard let address else { return }
        lock.withLock {
            if trusted.count >= Self.capacity { trusted = trusted.filter { now.timeIntervalSince($0.value) < Self.trustFor } }
            trusted[Self.pair(user, address)] = now
        }
    }

    private static func pair(_ user: String, _ address: String) -> String { user.lowercased() + "|" + address }

    private static func keys(user: String, address: String?) -> [String] {
        ["user:" + user.lowercased()] + (address.map { ["address:" + $0] } ?? [])
    }
}
