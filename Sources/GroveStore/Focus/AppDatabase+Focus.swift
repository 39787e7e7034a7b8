import Foundation
import GRDB
import GroveCore

extension AppDatabase {
    /// A logged pause inside a past session (see `FocusSession.logged`).
    public typealias LoggedPause = FocusSession.LoggedPause

    // MARK: Writes

    /// Starts a focus session now, with what it is for (`tags`, any form a person typed). A session
    /// that reached its length while nobody watched is completed first; one still running is an error.
    @discardableResult
    public func startFocusSession(plannedDuration: TimeInterval? = nil, tags: [String] = []) throws -> FocusSession {
        let tags = try FocusTags.normalized(tags)
        return try write { db in try startFocusSession(db, plannedDuration: plannedDuration, tags: tags) }
    }

    /// Starts a session inside a transaction that may do more (a pause that plants a tree instead).
    func startFocusSession(_ db: Database, plannedDuration: TimeInterval?, tags: [String]) throws -> FocusSession {
        let calendar = try calendar(db)
        if let open = try settledOpenSession(db, calendar: calendar), open.session.state.isOpen { throw FocusError.sessionAlreadyOpen }
        let planned = try plannedDuration ?? focusPreferences(db).focusDuration
        let reading = environment.clockReading()
        let session = try FocusSession.start(
            id: environment.uuid(), at: reading.wall, plannedDuration: planned, timeZone: calendar.timeZone,
            tags: tags)
        try FocusSessionRecord(session, anchor: reading).insert(db)
        return session
    }

    /// Pauses the running session.
    @discardableResult
    public func pauseFocusSession() throws -> FocusSession {
        try transitionOpenSession { session, now, _ in try session.pause(at: now) }
    }

    /// Resumes the paused session.
    @discardableResult
    public func resumeFocusSession() throws -> FocusSession {
        try transitionOpenSession { session, now, _ in try session.resume(at: now) }
    }

    /// Abandons the running or paused session: no tree.
    @discardableResult
    public func abandonFocusSession() throws -> FocusSession {
        try transitionOpenSession { session, now, calendar in try session.abandon(at: now, in: calendar) }
    }

    private func transitionOpenSession(_ change: (inout FocusSession, Date, ZonedCalendar) throws -> Void) throws -> FocusSession {
        try write { db in
            let calendar = try calendar(db)
            guard let open = try settledOpenSession(db, calendar: calendar) else { throw FocusError.noOpenSession }
            var session = open.session
            // A session completed by settling cannot be paused or abandoned any more: the state
            // machine says so with its own error.
            try change(&session, open.now, calendar)
            let anchor = ClockReading(wall: open.now, bootID: open.reading.bootID, sinceBoot: open.reading.sinceBoot)
            try FocusSessionRecord(session, anchor: anchor).update(db)
            return session
        }
    }

    /// Records a session that happened in the past, by the rules of `FocusSession.logged`.
    @discardableResult
    public func logFocusSession(
        start: Date, end: Date, pauses: [LoggedPause] = [], abandoned: Bool = false,
        plannedDuration: TimeInterval? = nil, timeZone: TimeZone? = nil, tags: [String] = []
    ) throws -> FocusSession {
        let start = start.groveRoundedToMillis, end = end.groveRoundedToMillis
        let tags = try FocusTags.normalized(tags)
        let pauses = pauses.map { LoggedPause(start: $0.start.groveRoundedToMillis, end: $0.end.groveRoundedToMillis) }
        return try write { db in
            let calendar = try ZonedCalendar(timeZone: timeZone ?? calendar(db).timeZone)
            var session = try FocusSession.logged(
                id: environment.uuid(), start: start, end: end, pauses: pauses, abandoned: abandoned,
                plannedDuration: plannedDuration, now: environment.now(), calendar: calendar)
            session.tags = tags
            try checkNoOverlap(start: start, end: end, db)
            try FocusSessionRecord(session).insert(db)
            return session
        }
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

    /// The session whose id is `prefix` or starts with it (8 characters or more, any case): ids are
    /// long, people copy the start. An ambiguous or unknown prefix is an error naming the field.
    public func focusSession(idPrefix prefix: String) throws -> FocusSession {
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
    public func deleteFocusSession(id: UUID) throws {
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
    public func settleFocusSession() throws -> FocusSession? {
        let check = try writer.snapshotRead { db -> (FocusSession, Bool)? in
            guard
                let record = try FocusSessionRecord.fetchOne(
                    db.cachedStatement(sql: "SELECT * FROM focus_session WHERE state IN ('active', 'paused')"))
            else { return nil }
            let session = try record.model()
            let (now, uncertain) = environment.clockReading().resolved(since: record.anchor)
            return (session, session.isDue(at: now) || (uncertain && !session.clockUncertain))
        }
        guard let (session, needsWrite) = check else { return nil }
        guard needsWrite else { return session }
        return try write { db in try settledOpenSession(db, calendar: calendar(db))?.session }
    }

    /// The open session settled at the resolved `now`, persisted if it completed.
    func settledOpenSession(_ db: Database, calendar: ZonedCalendar) throws -> (session: FocusSession, now: Date, reading: ClockReading)? {
        guard
            let record = try FocusSessionRecord.fetchOne(
                db.cachedStatement(sql: "SELECT * FROM focus_session WHERE state IN ('active', 'paused')"))
        else { return nil }
        var session = try record.model()
        let reading = environment.clockReading()
        let (now, uncertain) = reading.resolved(since: record.anchor)
        if uncertain && !session.clockUncertain { session.clockUncertain = true }
        let settled = session.settled(at: now, fallback: calendar)
        if settled != (try record.model()) {
            try FocusSessionRecord(settled, anchor: record.anchor).update(db)
        }
        return (settled, now, reading)
    }

    // MARK: Reads (seed 000's queries)

    /// The active or paused session (Query 5), settled: a session that has run its length is stored
    /// as completed and no longer returned here.
    public func currentFocusSession() throws -> FocusSession? {
        try settleFocusSession().flatMap { $0.state.isOpen ? $0 : nil }
    }

    /// The instant to evaluate `session` at: the wall clock, or the monotonic clock since its last
    /// transition when the process is on the same boot.
    public func now(for session: FocusSession) throws -> Date {
        now(since: try clockAnchor(of: session))
    }

    /// The clock reading taken at the session's last transition (what `now(for:)` measures from).
    public func clockAnchor(of session: FocusSession) throws -> ClockReading? {
        try writer.snapshotRead { db in try FocusSessionRecord.fetchOne(db, key: session.id.uuidString)?.anchor }
    }

    /// The current instant measured from `anchor` (see `ClockReading.resolved(since:)`); no database access.
    public func now(since anchor: ClockReading?) -> Date {
        environment.clockReading().resolved(since: anchor).now
    }

    /// One session by id.
    public func focusSession(id: UUID) throws -> FocusSession? {
        try writer.snapshotRead { db in try FocusSessionRecord.fetchOne(db, key: id.uuidString)?.model() }
    }

    /// Completed sessions, newest first (Query 1: the forest).
    public func completedSessions(limit: Int? = nil, offset: Int = 0) throws -> [FocusSession] {
        if let limit, limit < 0 { throw InvalidField("limit", "limit cannot be negative") }
        guard offset >= 0 else { throw InvalidField("offset", "offset cannot be negative") }
        try settleFocusSession()
        return try writer.snapshotRead { db in
            try FocusSessionRecord.filter(sql: "state = 'completed'").order(sql: "end_time DESC, id")
                .limit(limit ?? -1, offset: offset).fetchAll(db).map { try $0.model() }
        }
    }

    /// Sessions completed today in the configured zone (Query 2).
    public func todaysCompletedSessions() throws -> [FocusSession] {
        try settleFocusSession()
        return try writer.snapshotRead { db in
            let today = try calendar(db).localDay(of: environment.now())
            // `+state`: the day's index, not the state's (which would visit every completed session).
            return try FocusSessionRecord.filter(sql: "end_day = ? AND +state = 'completed'", arguments: [today.description])
                .order(sql: "end_time DESC").fetchAll(db).map { try $0.model() }
        }
    }

    /// The largest page a list returns at once.
    public static let maxPageSize = 1000

    /// One page of sessions by start, newest first, optionally in one state (Query 3 in pages): the
    /// database sorts and skips, so a page costs the same at any history size.
    public func focusSessions(state: SessionState? = nil, limit: Int, offset: Int = 0) throws -> [FocusSession] {
        guard (1...Self.maxPageSize).contains(limit) else { throw InvalidField("limit", "limit must be between 1 and \(Self.maxPageSize)") }
        guard offset >= 0 else { throw InvalidField("offset", "offset cannot be negative") }
        try settleFocusSession()
        return try writer.snapshotRead { db in
            var request = FocusSessionRecord.order(sql: "start_time DESC, id")
            if let state { request = request.filter(sql: "state = ?", arguments: [state.rawValue]) }
            return try request.limit(limit, offset: offset).fetchAll(db).map { try $0.model() }
        }
    }

    /// The session started last, if any (settled first).
    public func latestFocusSession() throws -> FocusSession? {
        try focusSessions(limit: 1).first
    }

    /// Every session, newest first (Query 3).
    public func allFocusSessions() throws -> [FocusSession] {
        try writer.snapshotRead { db in try FocusSessionRecord.order(sql: "start_time DESC, id").fetchAll(db).map { try $0.model() } }
    }

    /// Completed sessions that ended in `[from, to)`, newest first (Query 4).
    public func completedSessions(from: Date, to: Date) throws -> [FocusSession] {
        try writer.snapshotRead { db in
            try FocusSessionRecord.filter(
                sql: "state = 'completed' AND end_time >= ? AND end_time < ?", arguments: [from.groveMillis, to.groveMillis]
            )
            .order(sql: "end_time DESC").fetchAll(db).map { try $0.model() }
        }
    }

    /// Completed and abandoned sessions that ended on the given local days (inclusive), newest first.
    public func terminalSessions(fromDay: LocalDay, toDay: LocalDay) throws -> [FocusSession] {
        try writer.snapshotRead { db in
            try FocusSessionRecord.filter(sql: "end_day BETWEEN ? AND ?", arguments: [fromDay.description, toDay.description])
                .order(sql: "end_time DESC").fetchAll(db).map { try $0.model() }
        }
    }

    // MARK: Stats

    /// ForestStats, computed in SQL from per-day totals (one row per day, never one per session):
    /// totals are summed by SQLite; only the days with trees come back, as day numbers, for the streaks.
    /// With `tag`, the same over the sessions carrying it (the per-day-per-tag totals).
    public func forestStats(tag: String? = nil) throws -> ForestStats {
        let days = try DayTotals(tag: tag)
        try settleFocusSession()
        return try writer.snapshotRead { db in
            let calendar = try calendar(db)
            let today = calendar.localDay(of: environment.now())
            let totals = try db.cachedRow(
                """
                SELECT coalesce(sum(trees), 0), coalesce(sum(abandoned), 0), coalesce(sum(focus_ms), 0),
                       coalesce(sum(CASE WHEN day = ?1 THEN trees END), 0), coalesce(sum(CASE WHEN day = ?1 THEN focus_ms END), 0)
                FROM \(days.table) WHERE \(days.condition(parameter: 2))
                """, [today.description, days.tag])
            // julianday() of a YYYY-MM-DD is an exact .5; 2440587.5 is 1970-01-01.
            var treeDays: [LocalDay] = []
            let cursor = try Int.fetchCursor(
                db.cachedStatement(
                    sql: """
                        SELECT CAST(julianday(day) - 2440587.5 AS INTEGER) FROM \(days.table) WHERE \(days.condition(parameter: 1)) AND trees > 0 ORDER BY day
                        """), arguments: [days.tag])
            while let number = try cursor.next() { treeDays.append(LocalDay(dayNumber: number)) }
            // Every column is coalesced, so an empty table still gives one row of zeros.
            func total(_ index: Int) -> Int64 { totals.flatMap { $0[index] as Int64? } ?? 0 }
            return ForestStats(
                totalTrees: Int(total(0)), totalFocusMillis: total(2), abandonedCount: Int(total(1)), todaysTrees: Int(total(3)),
                todaysFocusMillis: total(4), sortedTreeDays: treeDays, today: today, calendar: calendar)
        }
    }

    /// Per-day totals between two local days, inclusive (heatmaps, "this week"); with `tag`, of the
    /// sessions carrying it.
    public func dailyFocusTotals(from: LocalDay, to: LocalDay, tag: String? = nil) throws -> [DailyFocusTotals] {
        let days = try DayTotals(tag: tag)
        return try writer.snapshotRead { db in
            try FocusDayRecord.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT day, trees, abandoned, focus_ms FROM \(days.table) WHERE \(days.condition(parameter: 3)) AND day BETWEEN ?1 AND ?2 ORDER BY day
                        """), arguments: [from.description, to.description, days.tag]
            ).compactMap(\.totals)
        }
    }

    /// The last year of trees as a week-by-weekday grid, in the configured calendar (the CLI's and the
    /// web's stats heatmap).
    public func yearHeatmap(tag: String? = nil) throws -> YearHeatmap {
        let calendar = try calendar()
        let today = calendar.localDay(of: environment.now())
        let totals = try dailyFocusTotals(from: YearHeatmap.start(today: today, firstWeekday: calendar.firstWeekday), to: today, tag: tag)
        return YearHeatmap(totals: totals, today: today, firstWeekday: calendar.firstWeekday)
    }

    /// The break the Pomodoro cycle calls for now: counted over today's trees.
    public func nextBreak() throws -> PomodoroBreak {
        let stats = try forestStats()
        return try focusPreferences().breakAfter(completedInCycle: stats.todaysTrees)
    }

    // MARK: Preferences

    public func focusPreferences() throws -> FocusPreferences {
        try writer.snapshotRead { db in try focusPreferences(db) }
    }

    func focusPreferences(_ db: Database) throws -> FocusPreferences {
        try FocusPreferencesRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM focus_preferences WHERE id = 1"))?.model ?? .default
    }

    /// Changes some focus preferences in one transaction (the rest stay as stored, whoever changed them).
    @discardableResult
    public func changeFocusPreferences(_ change: (inout FocusPreferences) -> Void) throws -> FocusPreferences {
        try write { db in
            var preferences = try focusPreferences(db)
            let probe = preferences.syncProbe
            change(&preferences)
            try preferences.validate()
            try FocusPreferencesRecord(preferences).upsert(db)
            try SyncChoice.record(
                db, .focusPreferences, id: "", fields: SyncChoice.assigned(by: change, probe: probe, fields: FocusPreferences.syncFields))
            return preferences
        }
    }

    public func updateFocusPreferences(_ preferences: FocusPreferences) throws {
        try preferences.validate()
        try write { db in try FocusPreferencesRecord(preferences).upsert(db) }
    }

    // MARK: Bulk

    /// Inserts (or replaces by id) many sessions in one transaction with one prepared statement.
    /// Validates every session first; inserts none if any is bad.
    public func insertFocusSessions(_ sessions: [FocusSession]) throws {
        try sessions.validateAsStored()
        try write { db in try upsertFocusSessions(sessions, db) }
    }
}
