import Crypto
import Foundation
import GRDB
import GroveCore

/// A browser's Web Push subscription (`PushSubscription.toJSON()` in the page): where its push service
/// takes messages for it, and the keys its messages are encrypted to (RFC 8291).
public struct PushSubscription: Sendable, Equatable {
    /// The push service's URL for this browser (RFC 8030): https, or http on this machine's loopback.
    public var endpoint: String
    /// The browser's P-256 public key, uncompressed (65 bytes).
    public var p256dh: Data
    /// The browser's auth secret (16 bytes).
    public var auth: Data
    /// The browser's own description of itself, cut to 200 characters.
    public var userAgent: String
    public var created: Date

    /// The push service's origin, which is what a list shows (the rest of the URL names the browser).
    public var service: String {
        guard let url = URL(string: endpoint), let host = url.host else { return endpoint }
        return "\(url.scheme ?? "https")://\(host)"
    }
}

extension AppDatabase {
    /// The most browsers one Grove pushes to: every one is sent every notice.
    public static let pushSubscriptionLimit = 20
    /// A subscription whose push service failed this many times in a row is dropped (404 and 410
    /// drop it at once: RFC 8030 says it is gone).
    public static let pushFailureLimit = 10

    /// This Grove's VAPID key (RFC 8292): made on first use and kept in the store, so the browsers'
    /// subscriptions, which name its public half, stay valid across restarts.
    public func vapidKey() throws -> P256.Signing.PrivateKey {
        let read = { (db: Database) throws -> P256.Signing.PrivateKey? in
            guard let text = try String.fetchOne(db.cachedStatement(sql: "SELECT value FROM grove_meta WHERE key = 'vapid_key'")),
                let raw = Data(base64Encoded: text)
            else { return nil }
            return try? P256.Signing.PrivateKey(rawRepresentation: raw)
        }
        if let key = try writer.snapshotRead(read) { return key }
        return try write { db in
            if let key = try read(db) { return key }
            let key = P256.Signing.PrivateKey()
            try db.cachedExecute(
                "INSERT OR REPLACE INTO grove_meta (key, value) VALUES ('vapid_key', ?)", [key.rawRepresentation.base64EncodedString()])
            return key
        }
    }

    /// Keeps a browser's subscription (the same endpoint again replaces its keys). The endpoint must
    /// be an https URL (http only on this machine's loopback), the keys a P-256 point and 16 bytes in
    /// base64url; each refusal names its field.
    @discardableResult
    public func savePushSubscription(endpoint: String, p256dh: String, auth: String, userAgent: String) throws -> PushSubscription {
        let subscription = try Self.validatedSubscription(
            endpoint: endpoint, p256dh: p256dh, auth: auth, userAgent: userAgent, created: environment.now())
        return try write { db in
            let known =
                try Bool.fetchOne(
                    db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM push_subscription WHERE endpoint = ?)"), arguments: [endpoint])
                ?? false
            let count = try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM push_subscription")) ?? 0
            guard known || count < Self.pushSubscriptionLimit else {
                throw InvalidField(
                    "endpoint",
                    "At most \(Self.pushSubscriptionLimit) browsers receive notifications: turn them off on one first (Settings)")
            }
            try db.cachedExecute(
                """
                INSERT OR REPLACE INTO push_subscription (endpoint, p256dh, auth, user_agent, created_ms, failures)
                VALUES (?, ?, ?, ?, ?, 0)
                """,
                [subscription.endpoint, subscription.p256dh, subscription.auth, subscription.userAgent, subscription.created.groveMillis])
            return subscription
        }
    }

    static func validatedSubscription(endpoint: String, p256dh: String, auth: String, userAgent: String, created: Date) throws
        -> PushSubscription
    {
        guard endpoint.utf8.count <= 2000, let url = URL(string: endpoint), let host = url.host, !host.isEmpty,
            url.scheme == "https" || (url.scheme == "http" && ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host))
        else {
            throw InvalidField("endpoint", "endpoint must be the push service's https URL (at most 2,000 characters)")
        }
        guard let key = Data(base64URLEncoded: p256dh), key.count == 65, (try? P256.KeyAgreement.PublicKey(x963Representation: key)) != nil
        else {
            throw InvalidField("keys.p256dh", "keys.p256dh must be the browser's P-256 public key: 65 bytes in base64url")
        }
        guard let secret = Data(base64URLEncoded: auth), secret.count == 16 else {
            throw InvalidField("keys.auth", "keys.auth must be the browser's auth secret: 16 bytes in base64url")
        }
        return PushSubscription(
            endpoint: endpoint, p256dh: key, auth: secret, userAgent: String(userAgent.prefix(200)), created: created)
    }

    /// Every browser that receives notifications, the oldest first.
    public func pushSubscriptions() throws -> [PushSubscription] {
        try writer.snapshotRead { db in
            try db.cachedRows("SELECT * FROM push_subscription ORDER BY created_ms, endpoint").map {
                PushSubscription(
                    endpoint: $0["endpoint"], p256dh: $0["p256dh"], auth: $0["auth"], userAgent: $0["user_agent"],
                    created: Date(groveMillis: $0["created_ms"]))
            }
        }
    }

    /// Whether any browser receives notifications (then this Grove rings: see `TimerAlarmService`).
    public func hasPushSubscriptions() throws -> Bool {
        try writer.snapshotRead { db in
            try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM push_subscription)")) ?? false
        }
    }

    /// Stops notifications to one browser; whether it received them.
    @discardableResult
    public func removePushSubscription(endpoint: String) throws -> Bool {
        try write { db in
            try db.cachedExecute("DELETE FROM push_subscription WHERE endpoint = ?", [endpoint])
            return db.changesCount > 0
        }
    }

    /// Notes what came of a push to `endpoint`: a success clears its failures; a failure counts, and
    /// the `pushFailureLimit`-th in a row drops it. Returns whether it was dropped.
    @discardableResult
    public func notePushDelivery(endpoint: String, succeeded: Bool) throws -> Bool {
        try write { db in
            if succeeded {
                try db.cachedExecute("UPDATE push_subscription SET failures = 0 WHERE endpoint = ? AND failures > 0", [endpoint])
                return false
            }
            try db.cachedExecute("UPDATE push_subscription SET failures = failures + 1 WHERE endpoint = ?", [endpoint])
            try db.cachedExecute("DELETE FROM push_subscription WHERE endpoint = ? AND failures >= ?", [endpoint, Self.pushFailureLimit])
            return db.changesCount > 0
        }
    }
}
