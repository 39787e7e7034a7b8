import Foundation
import GroveStore

/// The signed-in browsers, as the login middleware asks about them on every request from elsewhere
/// than this machine: the store's answer (`useWebSession`), remembered until the store changes (a
/// sign-out here or from `grove serve sign-out` in another process is a commit, and ends the memory)
/// and for a few minutes at most (then "last seen" is written, and an idle limit passed is found).
final class WebSessions: @unchecked Sendable {
    let database: AppDatabase
    let monitor: ChangeMonitor
    private let lock = NSLock()
    /// Session id → the change generation it was found at, and when.
    private var known: [String: (generation: Int, found: Date)] = [:]

    init(database: AppDatabase, monitor: ChangeMonitor) {
        self.database = database
        self.monitor = monitor
    }

    /// Whether `cookie` names a session that is signed in now.
    func isSignedIn(_ cookie: String) async throws -> Bool {
        guard cookie.count == 64, cookie.allSatisfy(\.isHexDigit) else { return false }
        let id = AppDatabase.webSessionID(cookie: cookie), generation = monitor.freshGeneration
        let now = database.environment.now()
        if let entry = lock.withLock({ known[id] }), entry.generation == generation,
            now.timeIntervalSince(entry.found) < AppDatabase.webSessionTouchEvery
        {
            return true
        }
        let found = try await database.run { db in try db.useWebSession(cookie: cookie) }
        lock.withLock {
            if found {
                if known.count >= 1_000 { known.removeAll() }
                known[id] = (monitor.generation, now)
            } else {
                known[id] = nil
            }
        }
        return found
    }
}
