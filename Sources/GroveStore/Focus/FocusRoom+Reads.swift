import Foundation
import GRDB
import GroveCore

/// Reads of sessions (seed 000's queries).
extension FocusRoom {
    /// The active or paused session (Query 5), settled: a session that has run its length is stored
    /// as completed and no longer returned here.
    public func current() throws -> FocusSession? {
        try settle().flatMap { $0.state.isOpen ? $0 : nil }
    }

    /// The instant to evaluate `session` at: the wall clock, or the monotonic clock since its last
    /// transition when the process is on the same boot; for a session another device started with a
    /// fast clock, in that session's frame (`AppDatabase.fastStartSkew`).
    public func now(for session: FocusSession) throws -> Date {
        now(since: try clockAnchor(of: session))
    }

    /// The clock reading taken at the session's last transition (what `now(for:)` measures from). A
    /// session from a device whose clock ran fast gets one made now, as far ahead as that clock was:
    /// measured from it, the session counts down here instead of reading frozen.
    public func clockAnchor(of session: FocusSession) throws -> ClockReading? {
        let reading = environment.clockReading()
        return try writer.snapshotRead { db -> ClockReading? in
            // A cached statement, not `fetchOne(db, key:)`: that reads the table's schema first, ~2 M
            // instructions at every `grove focus status`.
            guard
                let record = try db.cachedRecord(
                    FocusSessionRecord.self, "SELECT * FROM focus_session WHERE id = ?", [session.id.uuidString])
            else { return nil }
            if let anchor = record.anchor { return anchor }
            let skew = try AppDatabase.fastStartSkew(db, record, now: reading.wall)
            guard skew > 0 else { return nil }
            return ClockReading(wall: reading.wall.addingTimeInterval(skew), bootID: reading.bootID, sinceBoot: reading.sinceBoot)
        }
    }

    /// The current instant measured from `anchor` (see `ClockReading.resolved(since:)`); no database access.
    public func now(since anchor: ClockReading?) -> Date {
        environment.clockReading().resolved(since: anchor).now
    }

    /// One session by id.
    public func session(id: UUID) throws -> FocusSession? {
        try writer.snapshotRead { db in try FocusSessionRecord.fetchOne(db, key: id.uuidString)?.model() }
    }

    /// Completed sessions, newest first (Query 1: the forest). `after`: the page after that session
    /// (its end and id), an index range at any depth; `offset` skips rows one by one.
    public func completed(limit: Int? = nil, offset: Int = 0, after: SessionCursor? = nil) throws -> [FocusSession] {
        if let limit, limit < 0 { throw InvalidField("limit", "limit cannot be negative") }
        try Self.checkOffset(offset)
        try settle()
        return try writer.snapshotRead { db in
            var request = FocusSessionRecord.filter(sql: "state = 'completed'").order(sql: "end_time DESC, id")
            if let after {
                // Ties on the instant continue by id, as the order does.
                request = request.filter(
                    sql: "end_time <= ? AND NOT (end_time = ? AND id <= ?)", arguments: [after.millis, after.millis, after.id.uuidString])
            }
            return try request.limit(limit ?? -1, offset: offset).fetchAll(db).map { try $0.model() }
        }
    }

    /// Sessions completed today in the configured zone (Query 2).
    public func completedToday() throws -> [FocusSession] {
        try settle()
        return try writer.snapshotRead { db in
            let today = try calendar(db).localDay(of: environment.now())
            // `+state`: the day's index, not the state's (which would visit every completed session).
            return try FocusSessionRecord.filter(sql: "end_day = ? AND +state = 'completed'", arguments: [today.description])
                .order(sql: "end_time DESC").fetchAll(db).map { try $0.model() }
        }
    }

    /// One page of sessions by start, newest first, optionally in one state (Query 3 in pages): the
    /// database sorts, and `after` (the last session of the page before: its start and id) starts
    /// the page by an index range, so a page costs the same at any depth.
    public func sessions(state: SessionState? = nil, limit: Int, offset: Int = 0, after: SessionCursor? = nil) throws -> [FocusSession] {
        guard (1...FocusRoom.maxPageSize).contains(limit) else {
            throw InvalidField("limit", "limit must be between 1 and \(FocusRoom.maxPageSize)")
        }
        try Self.checkOffset(offset)
        try settle()
        return try writer.snapshotRead { db in
            var request = FocusSessionRecord.order(sql: "start_time DESC, id")
            if let state { request = request.filter(sql: "state = ?", arguments: [state.rawValue]) }
            if let after {
                request = request.filter(
                    sql: "start_time <= ? AND NOT (start_time = ? AND id <= ?)",
                    arguments: [after.millis, after.millis, after.id.uuidString])
            }
            return try request.limit(limit, offset: offset).fetchAll(db).map { try $0.model() }
        }
    }

    /// The session started last, if any (settled first).
    public func latest() throws -> FocusSession? {
        try sessions(limit: 1).first
    }

    /// Every session, newest first (Query 3).
    public func all() throws -> [FocusSession] {
        try writer.snapshotRead { db in try FocusSessionRecord.order(sql: "start_time DESC, id").fetchAll(db).map { try $0.model() } }
    }

    /// Completed sessions that ended in `[from, to)`, newest first (Query 4).
    public func completed(from: Date, to: Date) throws -> [FocusSession] {
        try writer.snapshotRead { db in
            try FocusSessionRecord.filter(
                sql: "state = 'completed' AND end_time >= ? AND end_time < ?", arguments: [from.groveMillis, to.groveMillis]
            )
            .order(sql: "end_time DESC").fetchAll(db).map { try $0.model() }
        }
    }
}

extension FocusRoom {
    /// The deepest a page may start by offset: skipping rows costs a step each, so a page by offset
    /// stays bounded whatever the history; further on, the cursor (`after`) costs what the first page costs.
    public static let maxOffset = 10_000

    static func checkOffset(_ offset: Int) throws {
        guard (0...maxOffset).contains(offset) else {
            throw InvalidField(
                "offset",
                "offset must be from 0 to \(maxOffset) (got \(offset)): page further with the cursor (after=, the next page's link)")
        }
    }
}
