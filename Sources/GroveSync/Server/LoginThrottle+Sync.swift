import Foundation
import GroveHTTP

extension LoginThrottle {
    /// Throws `throttled` when the account or the address must wait.
    func check(user: String, address: String?, now: Date) throws(SyncServerError) {
        if let wait = wait(user: user, address: address, now: now) { throw .throttled(retryAfter: wait) }
    }

    /// The password gate's lane for an attempt: an address that logged in to this account first, then
    /// an address with no failure in the window, then the rest.
    public func lane(user: String, address: String?, now: Date) -> PasswordGate.Lane {
        switch standing(user: user, address: address, now: now) {
        case .trusted: .trusted
        case .clean: .fresh
        case .failing: .failing
        }
    }
}
