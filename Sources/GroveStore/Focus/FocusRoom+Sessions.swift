import Foundation
import GRDB
import GroveCore

extension AppDatabase {
    // MARK: Writes

    /// Starts a session inside a transaction that may do more (a pause that plants a tree instead).
    /// `openEnded`: it counts up until stopped, and `plannedDuration` must be nil. The break running
    /// after the last tree ends: the next session is here.
    ///
    /// `at`: when it was started, if earlier than now (`ActionInstant`: a start queued offline). It
    /// may not overlap a session already recorded; one whose time has run out since is completed by
    /// the next reading, as any session that ran out while nobody watched.
    func startFocusSession(
        _ db: Database, plannedDuration: TimeInterval?, openEnded: Bool = false, tags: [String], at requested: Date? = nil
    ) throws -> FocusSession {
        let calendar = try calendar(db)
        if let open = try settledOpenSession(db, calendar: calendar), open.session.state.isOpen { throw FocusError.sessionAlreadyOpen }
        // After settling: a session that just ended has put its tags' spelling in the day totals.
        let tags = try FocusTagSpelling.existing(db, tags)
        let reading = environment.clockReading()
        let start = try ActionInstant.resolve(requested, now: reading.wall, field: "startedAt").groveRoundedToMillis
        if start < reading.wall { try checkNoOverlap(start: start, end: reading.wall, db) }
        let session: FocusSession
        if openEnded {
            guard plannedDuration == nil else {
                throw InvalidField("plannedDuration", "An open-ended session has no length: give a length or open, not both")
            }
            session = FocusSession.startOpen(id: environment.uuid(), at: start, timeZone: calendar.timeZone, tags: tags)
        } else {
            session = try FocusSession.start(
                id: environment.uuid(), at: start, plannedDuration: plannedDuration ?? focusPreferences(db).focusDuration,
                timeZone: calendar.timeZone, tags: tags, shortest: environment.shortestTree)
        }
        // The anchor is this reading, whatever the start: the session's clock runs on from now.
        try FocusSessionRecord(session, anchor: reading).insert(db)
        try endBreak(db)
        return session
    }

    /// A change to the open session at an earlier instant (`at`, queued offline): made to the session
    /// as it stood then, and settled to now after. A session that had ended by then cannot change.
    func transitionOpenSession(
        at requested: Date?, _ change: (inout FocusSession, Date, ZonedCalendar) throws -> Void
    ) throws -> FocusSession {
        guard let requested else { return try transitionOpenSession(change) }
        return try write { db in
            let calendar = try calendar(db)
            guard
                let record = try FocusSessionRecord.fetchOne(
                    db.cachedStatement(sql: "SELECT * FROM focus_session WHERE state IN ('active', 'paused')"))
            else { throw FocusError.noOpenSession }
            let reading = environment.clockReading()
            let now = reading.resolved(since: record.anchor).now
            var session = try record.model()
            // Never before the state it changes began: a pause after the start, a resume after the pause.
            let floor = session.pausedAt ?? session.startTime
            let at = max(try ActionInstant.resolve(requested, now: now), floor).groveRoundedToMillis
            session = session.settled(at: at, fallback: calendar)
            try change(&session, at, calendar)
            session = session.settled(at: now, fallback: calendar)
            let anchor = ClockReading(wall: now, bootID: reading.bootID, sinceBoot: reading.sinceBoot)
            try FocusSessionRecord(session, anchor: anchor).update(db)
            try beginBreak(after: session, db)
            return session
        }
    }

    func transitionOpenSession(_ change: (inout FocusSession, Date, ZonedCalendar) throws -> Void) throws -> FocusSession {
        try write { db in try transitionOpenSession(db, change) }
    }

    /// The same inside a transaction another operation holds (a pause that lets the tree wither).
    func transitionOpenSession(_ db: Database, _ change: (inout FocusSession, Date, ZonedCalendar) throws -> Void) throws -> FocusSession {
        let calendar = try calendar(db)
        guard let open = try settledOpenSession(db, calendar: calendar) else { throw FocusError.noOpenSession }
        var session = open.session
        // A session completed by settling cannot be paused or abandoned any more: the state
        // machine says so with its own error.
        try change(&session, open.now, calendar)
        let anchor = ClockReading(wall: open.now, bootID: open.reading.bootID, sinceBoot: open.reading.sinceBoot)
        try FocusSessionRecord(session, anchor: anchor).update(db)
        try beginBreak(after: session, db)
        return session
    }

    /// Abandons the open session inside `db`'s transaction: no tree.
    @discardableResult
    func abandonFocusSession(_ db: Database) throws -> FocusSession {
        try transitionOpenSession(db) { session, now, calendar in try session.abandon(at: now, in: calendar) }
    }

    /// One person focuses on one thing at a time: a logged session may not overlap one already
    /// recorded (logging the same session twice is the usual mistake). Two indexed lookups, not a
    /// scan: a session starting inside the new one, or the last one starting before it still running.
    func checkNoOverlap(start: Date, end: Date, _ db: Database) throws {
        let (from, to) = (start.groveMillis, end.groveMillis)
        let inside = try Row.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT id, start_time, end_time FROM focus_session WHERE start_time >= ? AND start_time < ? ORDER BY start_time LIMIT 1
                    """), arguments: [from, to])
        let before = try Row.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT id, start_time, end_time FROM focus_session WHERE start_time < ? ORDER BY start_time DESC LIMIT 1
                    """), arguments: [from])
        let clash = inside ?? before.flatMap { row in ((row["end_time"] as Int64?) ?? Int64.max) > from ? row : nil }
        guard let clash else { return }
        let calendar = try self.calendar(db)
        let id: String = clash["id"]
        let began = Date(groveMillis: clash["start_time"])
        throw FocusError.invalidInterval(
            """
            This time overlaps the session recorded at \(calendar.wallText(began)) \
            (id \(id.prefix(8).lowercased())); remove that one first (grove focus rm \(id.prefix(8).lowercased())) if it was the mistake
            """)
    }

    /// The open session settled at the resolved `now`, persisted if it completed.
    func settledOpenSession(_ db: Database, calendar: ZonedCalendar) throws -> (session: FocusSession, now: Date, reading: ClockReading)? {
        guard
            let record = try FocusSessionRecord.fetchOne(
                db.cachedStatement(sql: "SELECT * FROM focus_session WHERE state IN ('active', 'paused')"))
        else { return nil }
        var session = try record.model()
        let reading = environment.clockReading()
        let (resolved, uncertain) = reading.resolved(since: record.anchor)
        let now = resolved.addingTimeInterval(try Self.fastStartSkew(db, record, now: resolved))
        if uncertain && !session.clockUncertain { session.clockUncertain = true }
        let settled = session.settled(at: now, fallback: calendar)
        if settled != (try record.model()) {
            try FocusSessionRecord(settled, anchor: record.anchor).update(db)
            try beginBreak(after: settled, db)
        }
        return (settled, now, reading)
    }

    // MARK: Bulk

}

extension FocusRoom {
    /// Starts a focus session now, with what it is for (`tags`, any form a person typed). A session
    /// that reached its length while nobody watched is completed first; one still running is an error.
    /// `openEnded`: it counts up until `stop()`, growing its tree by the time spent (no length then).
    @discardableResult
    /// `at`: when it was started, if that was earlier (see `ActionInstant`).
    public func start(plannedDuration: TimeInterval? = nil, openEnded: Bool = false, tags: [String] = [], at: Date? = nil) throws
        -> FocusSession
    {
        let tags = try FocusTags.normalized(tags)
        return try write { db in
            try database.startFocusSession(db, plannedDuration: plannedDuration, openEnded: openEnded, tags: tags, at: at)
        }
    }

    /// Stops the running open-ended session: it completes with the time actually spent, and plants its
    /// tree. A planned session is refused (it ends when its time is up, or is abandoned).
    @discardableResult
    public func stop(at: Date? = nil) throws -> FocusSession {
        try database.transitionOpenSession(at: at) { session, now, calendar in
            try session.stop(at: now, in: calendar, shortest: database.environment.shortestTree)
        }
    }

    /// Pauses the running session (now, or `at` an earlier instant: see `ActionInstant`).
    @discardableResult
    public func pause(at: Date? = nil) throws -> FocusSession {
        try database.transitionOpenSession(at: at) { session, now, _ in try session.pause(at: now) }
    }

    /// Resumes the paused session (now, or `at` an earlier instant).
    @discardableResult
    public func resume(at: Date? = nil) throws -> FocusSession {
        try database.transitionOpenSession(at: at) { session, now, _ in try session.resume(at: now) }
    }

    /// Abandons the running or paused session: no tree (now, or `at` an earlier instant).
    @discardableResult
    public func abandon(at: Date? = nil) throws -> FocusSession {
        try database.transitionOpenSession(at: at) { session, now, calendar in try session.abandon(at: now, in: calendar) }
    }

    /// Records a session that happened in the past, by the rules of `FocusSession.logged`.
    @discardableResult
    public func log(
        start: Date, end: Date, pauses: [FocusRoom.LoggedPause] = [], abandoned: Bool = false,
        plannedDuration: TimeInterval? = nil, timeZone: TimeZone? = nil, tags: [String] = []
    ) throws -> FocusSession {
        let start = start.groveRoundedToMillis, end = end.groveRoundedToMillis
        let tags = try FocusTags.normalized(tags)
        let pauses = pauses.map { FocusRoom.LoggedPause(start: $0.start.groveRoundedToMillis, end: $0.end.groveRoundedToMillis) }
        return try write { db in
            let calendar = try ZonedCalendar(timeZone: timeZone ?? calendar(db).timeZone)
            var session = try FocusSession.logged(
                id: environment.uuid(), start: start, end: end, pauses: pauses, abandoned: abandoned,
                plannedDuration: plannedDuration, now: environment.now(), calendar: calendar, shortest: environment.shortestTree)
            session.tags = try FocusTagSpelling.existing(db, tags)
            try database.checkNoOverlap(start: start, end: end, db)
            try FocusSessionRecord(session).insert(db)
            return session
        }
    }

    /// The session whose id is `prefix` or starts with it (8 characters or more, any case): ids are
    /// long, people copy the start. An ambiguous or unknown prefix is an error naming the field.
    public func session(idPrefix prefix: String) throws -> FocusSession {
        let text = prefix.uppercased()
        guard text.utf8.count >= 8, text.utf8.count <= 36, text.allSatisfy({ $0.isHexDigit || $0 == "-" }) else {
            throw InvalidField("id", "id must be a session id or its first 8 or more characters (got \(prefix.quotedForMessage))")
        }
        return try writer.snapshotRead { db in
            // A range on the primary key: every id starting with the prefix sorts between it and prefix + "~".
            let records = try FocusSessionRecord.fetchAll(
                db.cachedStatement(sql: "SELECT * FROM focus_session WHERE id >= ? AND id < ? ORDER BY id LIMIT 2"),
                arguments: [text, text + "~"])
            guard let record = records.first else { throw NotFoundError("focus session", prefix) }
            guard records.count == 1 else { throw InvalidField("id", "\"\(prefix)\" starts more than one session's id: give more of it") }
            return try record.model()
        }
    }

    /// Deletes one recorded session (its day's totals follow, by trigger). A session still running or
    /// paused is refused: it is ended with `abandon`, never deleted from under its timer.
    public func delete(id: UUID) throws {
        try write { db in
            guard let record = try FocusSessionRecord.fetchOne(db, key: id.uuidString) else {
                throw NotFoundError("focus session", id.uuidString)
            }
            guard try !record.model().state.isOpen else { throw FocusError.deleteRunning }
            try record.delete(db)
        }
    }

    /// Completes, in the store, an open session that reached its length while nobody watched.
    /// Returns the session as it now stands: still open, or completed just now; nil when none was open.
    /// Takes the write lock only when something must be written.
    @discardableResult
    public func settle() throws -> FocusSession? {
        let check = try writer.snapshotRead { db -> (FocusSession, Bool)? in
            guard
                let record = try FocusSessionRecord.fetchOne(
                    db.cachedStatement(sql: "SELECT * FROM focus_session WHERE state IN ('active', 'paused')"))
            else { return nil }
            let session = try record.model()
            let (resolved, uncertain) = environment.clockReading().resolved(since: record.anchor)
            let now = resolved.addingTimeInterval(try AppDatabase.fastStartSkew(db, record, now: resolved))
            return (session, session.isDue(at: now) || (uncertain && !session.clockUncertain))
        }
        guard let (session, needsWrite) = check else { return nil }
        guard needsWrite else { return session }
        return try write { db in try database.settledOpenSession(db, calendar: calendar(db))?.session }
    }

    /// Inserts (or replaces by id) many sessions in one transaction with one prepared statement.
    /// Validates every session first; inserts none if any is bad.
    public func insert(_ sessions: [FocusSession]) throws {
        try sessions.validateAsStored()
        try write { db in try database.upsertFocusSessions(sessions, db) }
    }
}

extension AppDatabase {
    /// Starts further ahead of every clock here than this come from a clock that was wrong.
    static let fastStartTolerance: TimeInterval = 60

    /// How far ahead of this device's clocks an open session that another device started is stamped:
    /// 0 for one started here (it has this device's clock anchor) or on time.
    ///
    /// A device whose clock runs fast stamps its session's start days ahead; seen here, it would read
    /// frozen at its full length until this machine's clock caught up. The session's first sync clock
    /// is held to the server's time (a push stamped ahead is refused and stamped again), so the start
    /// minus that clock is how far ahead that device was; measured that much ahead, in the session's
    /// own frame, the session counts down here as it does there, and ends at the same instant.
    static func fastStartSkew(_ db: Database, _ record: FocusSessionRecord, now: Date) throws -> TimeInterval {
        let start = Date(groveMillis: record.startTime)
        guard record.anchor == nil, start.timeIntervalSince(now) > fastStartTolerance,
            let first = try String.fetchOne(
                db.cachedStatement(sql: "SELECT min(hlc) FROM sync_clock WHERE entity = 'focusSession' AND entity_id = ?"),
                arguments: [record.id]
            ).flatMap({ HLC($0) })
        else { return 0 }
        let skew = start.timeIntervalSince(Date(groveMillis: first.millis))
        return skew > fastStartTolerance ? skew : 0
    }
}
