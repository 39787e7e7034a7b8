import Foundation

/// What a PostgreSQL failure means to a person and to an HTTP client, by its SQLSTATE (PostgreSQL's
/// appendix A): a full disk is a 507 ("Insufficient Storage", try again once there is room), other
/// exhausted resources and a database not taking connections now a 503, anything else a 500. Kept
/// outside the `Postgres` trait so that its table is tested in every build.
public enum DatabaseFailure {
    /// The HTTP status for `sqlState`.
    public static func status(sqlState: String?) -> Int {
        guard let sqlState else { return 500 }
        if sqlState == "53100" { return 507 }  // disk_full
        // insufficient_resources (53…), connection exceptions (08…), admin shutdown / cannot connect now (57P…).
        if sqlState.hasPrefix("53") || sqlState.hasPrefix("08") || sqlState.hasPrefix("57P") { return 503 }
        return 500
    }

    /// One line for a person: what failed, without SQL.
    public static func summary(sqlState: String?) -> String {
        switch status(sqlState: sqlState) {
        case 507: "the database's disk is full; nothing was saved, and the device sends it again later"
        case 503: "the database cannot take this now (out of resources, or restarting); the device tries again later"
        default: "the database refused it (SQLSTATE \(sqlState ?? "unknown"))"
        }
    }
}

/// Remembers that the database's disk was full at the last write, until a write succeeds: readiness
/// (`/readyz`) then says so, as the SQLite store's free-space check does.
public final class DiskFullLatch: @unchecked Sendable {
    private let lock = NSLock()
    private var full = false

    public init() {}

    public var isFull: Bool { lock.withLock { full } }

    /// After a write: `status` 507 sets it, a write that succeeded (nil) clears it.
    public func record(status: Int?) {
        lock.withLock {
            if status == 507 { full = true } else if status == nil { full = false }
        }
    }
}
