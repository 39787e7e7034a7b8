import Foundation
import GroveStore

/// The signed-in browsers, as the login middleware asks about them on every request from elsewhere
/// than this machine: the store's `web_session` rows, remembered until the store changes (a sign-out
/// from Settings or from `grove serve sign-out` in another process is a commit, and ends the memory).
final class WebSessions: @unchecked Sendable {
    let database: AppDatabase
    let monitor: ChangeMonitor
    private let lock = NSLock()
    /// Session id → the change generation it was found at, and when it was last noted as seen.
    private var known: [String: (generation: Int, touched: Date)] = [:]
    /// "Last seen" is written at most this often per browser: a page's requests write nothing.
    static let touchEvery: TimeInterval = 300
    /// A session unused this long ends at its next use.
    static let idleLimit: TimeInterval = 90 * 86_400

    init(database: AppDatabase, monitor: ChangeMonitor) {
        self.database = database
        self.monitor = monitor
    }

    /// Whether `cookie` names a session that is signed in now.
    func isSignedIn(_ cookie: String) async throws -> Bool {
        guard cookie.count == 64, cookie.allSatisfy(\.isHexDigit) else { return false }
        let id = AppDatabase.webSessionID(cookie: cookie), generation = monitor.freshGeneration
        let now = database.environment.now()
        // Remembered while the store has not changed, and for a few minutes at most (then "last seen"
        // is written, and an idle limit passed is found).
        if let entry = lock.withLock({ known[id] }), entry.generation == generation, now.timeIntervalSince(entry.touched) < Self.touchEvery
        {
            return true
        }
        let found = try await database.run { db -> Bool in
            guard let session = try db.webSession(cookie: cookie) else { return false }
            // A browser unused for three months is signed out: a phone lost in a drawer keeps nothing open.
            if now.timeIntervalSince(session.lastSeen) > Self.idleLimit {
                try db.endWebSession(id: id)
                return false
            }
            if now.timeIntervalSince(session.lastSeen) >= Self.touchEvery { try db.touchWebSession(id: id) }
            return true
        }
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

    /// Forgets what was remembered (after a sign-out made here).
    func forget() { lock.withLock { known.removeAll() } }
}
