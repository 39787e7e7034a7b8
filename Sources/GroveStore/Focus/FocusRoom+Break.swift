import Foundation
import GRDB
import GroveCore

extension AppDatabase {
    /// Begins the break a planted tree earns, in the transaction that completed it: from the instant
    /// it completed, short or long by the trees of its day. An open-ended session has no Pomodoro
    /// cycle, and so no break. Replaces the last break (one row at most).
    func beginBreak(after session: FocusSession, _ db: Database) throws {
        guard session.state == .completed, !session.openEnded, let end = session.endTime, let day = session.endDay else { return }
        let trees =
            try Int.fetchOne(db.cachedStatement(sql: "SELECT trees FROM focus_day WHERE day = ?"), arguments: [day.description]) ?? 1
        let pause = try focusPreferences(db).breakAfter(completedInCycle: trees)
        try db.cachedExecute("DELETE FROM focus_break", [])
        let begun = FocusBreak(sessionID: session.id, kind: pause.kind, startTime: end, duration: pause.duration)
        try FocusBreakRecord(begun, anchor: environment.clockReading()).insert(db)
    }

    /// The stored break (one row at most) and the instant it is at: measured by the monotonic clock
    /// since it began, so that a wall clock that steps (NTP, a clock set by hand) moves nothing.
    func storedBreak(_ db: Database) throws -> (record: FocusBreakRecord, pause: FocusBreak, now: Date)? {
        guard let record = try FocusBreakRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM focus_break")) else { return nil }
        return (record, try record.model(), environment.clockReading().resolved(since: record.anchor).now)
    }

    /// Ends a running break now: the next session starts, or the person skips it. The break as it
    /// ended, or nil when none was running.
    @discardableResult
    func endBreak(_ db: Database) throws -> FocusBreak? {
        guard let (record, pause, now) = try storedBreak(db), pause.isRunning(at: now) else { return nil }
        var ended = pause
        ended.end(at: now.groveRoundedToMillis)
        try db.cachedExecute(
            "UPDATE focus_break SET ended_at = ? WHERE session_id = ?", [ended.endedEarlyAt?.groveMillis, record.sessionId])
        return ended
    }
}

extension FocusRoom {
    /// The break after the last planted tree while it runs (nil once over, skipped, or a session
    /// started): the same for every face, and across reloads and restarts.
    public func currentBreak() throws -> FocusBreak? {
        try current() == nil ? try lastBreak() : nil
    }

    /// The running break (no session open) with the clock reading it is measured from
    /// (`now(since:)`), and when it ends by this process's wall clock: what a cache keeps.
    public func runningBreak() throws -> (pause: FocusBreak, anchor: ClockReading?, ends: Date)? {
        guard try current() == nil, let (record, pause, now) = try writer.snapshotRead({ db in try database.storedBreak(db) }),
            pause.isRunning(at: now)
        else { return nil }
        return (pause, record.anchor, environment.now().addingTimeInterval(pause.remaining(at: now)))
    }

    /// The stored break if it still runs; whether a session is open is the caller's question.
    private func lastBreak() throws -> FocusBreak? {
        try writer.snapshotRead { db in try database.storedBreak(db) }.flatMap { $0.pause.isRunning(at: $0.now) ? $0.pause : nil }
    }

    /// Ends the running break now: the person is ready for the next tree.
    @discardableResult
    public func skipBreak() throws -> FocusBreak {
        try write { db in
            // A tree planted while nobody watched has its break first.
            _ = try database.settledOpenSession(db, calendar: calendar(db))
            guard let skipped = try database.endBreak(db) else { throw FocusError.noBreak }
            return skipped
        }
    }

    /// The break that followed `sessionId`'s tree, running or over (nil: it earned none, or a later
    /// tree's break replaced it), and the instant it is at.
    public func breakAfter(sessionId: UUID) throws -> (pause: FocusBreak, now: Date)? {
        try settle()
        return try writer.snapshotRead { db in
            try database.storedBreak(db).flatMap { $0.pause.sessionID == sessionId ? ($0.pause, $0.now) : nil }
        }
    }

    /// Takes the right to say "break over" for the break after `sessionId`: true once, for whoever asks
    /// first (the session's waiter, the live terminal, a page), and only for a break that ran its
    /// course and ended within `FocusRoom.noticeWindow` (a skipped one says nothing; an old one is news to nobody).
    public func claimBreakOverNotice(sessionId: UUID) throws -> Bool {
        try settle()
        return try write { db in
            guard let (record, pause, now) = try database.storedBreak(db), pause.sessionID == sessionId, !record.notified,
                pause.endedEarlyAt == nil, !pause.isRunning(at: now), now.timeIntervalSince(pause.endTime) <= FocusRoom.noticeWindow
            else { return false }
            try db.cachedExecute("UPDATE focus_break SET notified = 1 WHERE session_id = ? AND notified = 0", [record.sessionId])
            return db.changesCount > 0
        }
    }

    /// The break that ran its course within `FocusRoom.noticeWindow` and was not announced yet, and when
    /// the running one ends (by this process's wall clock, for a sleep): what a service that says
    /// "break over" sleeps towards. One row at most.
    public func breakNotice() throws -> (over: FocusBreak?, ends: Date?) {
        try settle()
        guard let (record, pause, now) = try writer.snapshotRead({ db in try database.storedBreak(db) }), !record.notified,
            pause.endedEarlyAt == nil
        else { return (nil, nil) }
        if pause.isRunning(at: now) { return (nil, environment.now().addingTimeInterval(pause.remaining(at: now))) }
        return now.timeIntervalSince(pause.endTime) <= FocusRoom.noticeWindow ? (pause, nil) : (nil, nil)
    }

    /// The running session, or else the running break, as every face reports it at one instant.
    /// With no session open (a prompt's usual case) it is one read of the store: the open session's
    /// index and the one break row together.
    public func status() throws -> FocusStatusReport {
        let idle = try writer.snapshotRead { db -> (pause: FocusBreak, now: Date)?? in
            let open = try Row.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM focus_session WHERE state IN ('active', 'paused')"))
            guard open == nil else { return .none }
            return .some(try database.storedBreak(db).map { ($0.pause, $0.now) })
        }
        if case .some(let stored) = idle {
            let now = stored?.now ?? environment.now()
            return FocusStatusReport(nil, now: now, break: stored.flatMap { $0.pause.isRunning(at: now) ? $0.pause : nil })
        }
        let session = try current()
        let pause = session == nil ? try lastBreak() : nil
        return FocusStatusReport(session, now: try session.map(now(for:)) ?? environment.now(), break: pause)
    }
}
