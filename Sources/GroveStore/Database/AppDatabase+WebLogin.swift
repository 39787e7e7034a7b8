import Crypto
import Foundation
import GRDB

/// A browser signed in to `grove serve` (`web_session`): what Settings lists, by the hash of its cookie.
public struct WebSession: Sendable, Equatable, Identifiable, Encodable {
    /// The SHA-256 of the session's cookie, in hex: names it in the list and in "sign out".
    public var id: String
    public var created: Date
    public var lastSeen: Date
    /// The browser's own description of itself, cut to 200 characters.
    public var userAgent: String
    /// The address it signed in from.
    public var address: String
}

extension AppDatabase {
    /// The password hash of `grove serve`'s login (bcrypt), nil until `grove serve password` sets one.
    public func webPasswordHash() throws -> String? {
        try writer.snapshotRead { db in
            try String.fetchOne(db.cachedStatement(sql: "SELECT value FROM grove_meta WHERE key = 'web_password'"))
        }
    }

    /// Sets the login's password hash and signs every browser out: whoever knew the old password
    /// keeps nothing it opened.
    public func setWebPassword(hash: String) throws {
        try write { db in
            try db.cachedExecute("INSERT OR REPLACE INTO grove_meta (key, value) VALUES ('web_password', ?)", [hash])
            try db.execute(sql: "DELETE FROM web_session")
        }
    }

    /// The id a session's cookie is kept under.
    public static func webSessionID(cookie: String) -> String {
        SHA256.hash(data: Data(cookie.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// Records a new signed-in browser; returns its id.
    @discardableResult
    public func startWebSession(cookie: String, userAgent: String, address: String) throws -> String {
        let id = Self.webSessionID(cookie: cookie), now = environment.now().groveMillis
        try write { db in
            try db.cachedExecute(
                "INSERT INTO web_session (id, created_ms, last_seen_ms, user_agent, address) VALUES (?, ?, ?, ?, ?)",
                [id, now, now, String(userAgent.prefix(200)), String(address.prefix(100))])
        }
        return id
    }

    /// "Last seen" is written at most this often per browser: a page's requests write nothing.
    public static let webSessionTouchEvery: TimeInterval = 300
    /// A browser unused this long is signed out at its next use: a phone lost in a drawer keeps nothing open.
    public static let webSessionIdleLimit: TimeInterval = 90 * 86_400

    /// A browser's request with its cookie: whether the session it names is signed in now. One that
    /// went unused past `webSessionIdleLimit` ends here; "last seen" is noted every few minutes.
    public func useWebSession(cookie: String) throws -> Bool {
        let id = Self.webSessionID(cookie: cookie), now = environment.now()
        let lastSeen = try writer.snapshotRead { db in
            try Int64.fetchOne(db.cachedStatement(sql: "SELECT last_seen_ms FROM web_session WHERE id = ?"), arguments: [id])
        }
        guard let lastSeen else { return false }
        let idle = now.timeIntervalSince(Date(groveMillis: lastSeen))
        if idle > Self.webSessionIdleLimit {
            try endWebSession(id: id)
            return false
        }
        if idle >= Self.webSessionTouchEvery {
            try write { db in try db.cachedExecute("UPDATE web_session SET last_seen_ms = ? WHERE id = ?", [now.groveMillis, id]) }
        }
        return true
    }

    /// Every signed-in browser, the most recently seen first.
    public func webSessions() throws -> [WebSession] {
        try writer.snapshotRead { db in
            try db.cachedRows("SELECT * FROM web_session ORDER BY last_seen_ms DESC, id").map(Self.webSession)
        }
    }

    /// Signs one browser out (`id` from the list, or a unique start of it); returns whether one was.
    @discardableResult
    public func endWebSession(id: String) throws -> Bool {
        let prefix = id.lowercased()
        guard !prefix.isEmpty, prefix.count <= 64, prefix.allSatisfy(\.isHexDigit) else { return false }
        return try write { db in
            let ids = try String.fetchAll(
                db.cachedStatement(sql: "SELECT id FROM web_session WHERE substr(id, 1, ?) = ? LIMIT 2"), arguments: [prefix.count, prefix])
            guard ids.count == 1 else { return false }
            try db.cachedExecute("DELETE FROM web_session WHERE id = ?", [ids[0]])
            return true
        }
    }

    /// Signs every browser out; returns how many were.
    @discardableResult
    public func endAllWebSessions() throws -> Int {
        try write { db in
            try db.execute(sql: "DELETE FROM web_session")
            return db.changesCount
        }
    }

    private static func webSession(_ row: Row) -> WebSession {
        WebSession(
            id: row["id"], created: Date(groveMillis: row["created_ms"]), lastSeen: Date(groveMillis: row["last_seen_ms"]),
            userAgent: row["user_agent"], address: row["address"])
    }
}
