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
        try FocusBreakRecord(FocusBreak(sessionID: session.id, kind: pause.kind, startTime: end, duration: pause.duration)).insert(db)
    }

    /// Ends a running break at `now`: the next session starts, or the person skips it.
    /// Returns whether one was running.
    @discardableResult
    func endBreak(at now: Date, _ db: Database) throws -> Bool {
        let at = now.groveRoundedToMillis.groveMillis
        try db.cachedExecute(
            "UPDATE focus_break SET ended_at = max(?1, start_time) WHERE ended_at IS NULL AND start_time + duration_ms > ?1", [at])
        return db.changesCount > 0
    }
}

extension FocusRoom {
    /// The break after the last planted tree while it runs (nil once over, skipped, or a session
    /// started): the same for every face, and across reloads and restarts.
    public func currentBreak() throws -> FocusBreak? {
        try current() == nil ? try lastBreak() : nil
    }

    /// The stored break if it still runs; whether a session is open is the caller's question.
    private func lastBreak() throws -> FocusBreak? {
        let now = environment.now()
        return try writer.snapshotRead { db in
            try FocusBreakRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM focus_break"))?.model()
        }.flatMap { $0.isRunning(at: now) ? $0 : nil }
    }

    /// Ends the running break now: the person is ready for the next tree.
    @discardableResult
    public func skipBreak() throws -> FocusBreak {
        try write { db in
            // A tree planted while nobody watched has its break first.
            _ = try database.settledOpenSession(db, calendar: calendar(db))
            let now = environment.now()
            guard try database.endBreak(at: now, db),
                let skipped = try FocusBreakRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM focus_break"))?.model()
            else { throw FocusError.noBreak }
            return skipped
        }
    }

    /// The break that followed `sessionId`'s tree, running or over (nil: it earned none, or a later
    /// tree's break replaced it).
    public func breakAfter(sessionId: UUID) throws -> FocusBreak? {
        try settle()
        return try writer.snapshotRead { db in
            try FocusBreakRecord.fetchOne(
                db.cachedStatement(sql: "SELECT * FROM focus_break WHERE session_id = ?"), arguments: [sessionId.uuidString])?
                .model()
        }
    }

    /// Takes the right to say "break over" for the break after `sessionId`: true once, for whoever asks
    /// first (the session's waiter, the live terminal, a page), and only for a break that ran its
    /// course and ended within `FocusRoom.noticeWindow` (a skipped one says nothing; an old one is news to nobody).
    public func claimBreakOverNotice(sessionId: UUID) throws -> Bool {
        try settle()
        let now = environment.now().groveRoundedToMillis.groveMillis
        return try write { db in
            try db.cachedExecute(
                """
                UPDATE focus_break SET notified = 1
                WHERE session_id = ?1 AND notified = 0 AND ended_at IS NULL
                  AND start_time + duration_ms <= ?2 AND start_time + duration_ms >= ?2 - ?3
                """, [sessionId.uuidString, now, Int64(FocusRoom.noticeWindow * 1000)])
            return db.changesCount > 0
        }
    }

    /// The break that ran its course within `FocusRoom.noticeWindow` and was not announced yet, and when
    /// the running one ends: what a service that says "break over" sleeps towards. One row at most.
    public func breakNotice() throws -> (over: FocusBreak?, ends: Date?) {
        try settle()
        let now = environment.now()
        let last = try writer.snapshotRead { db in
            try FocusBreakRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM focus_break"))
        }
        guard let last, !last.notified else { return (nil, nil) }
        let pause = try last.model()
        guard pause.endedEarlyAt == nil else { return (nil, nil) }
        if pause.isRunning(at: now) { return (nil, pause.endTime) }
        return now.timeIntervalSince(pause.endTime) <= FocusRoom.noticeWindow ? (pause, nil) : (nil, nil)
    }

    /// The running session, or else the running break, as every face reports it at one instant.
    /// With no session open (a prompt's usual case) it is one read of the store: the open session's
    /// index and the one break row together.
    public func status() throws -> FocusStatusReport {
        let idle = try writer.snapshotRead { db -> FocusBreakRecord?? in
            let open = try Row.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM focus_session WHERE state IN ('active', 'paused')"))
            guard open == nil else { return .none }
            return .some(try FocusBreakRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM focus_break")))
        }
        let now = environment.now()
        if case .some(let record) = idle {
            let pause = try record.map { try $0.model() }
            return FocusStatusReport(nil, now: now, break: pause.flatMap { $0.isRunning(at: now) ? $0 : nil })
        }
        let session = try current()
        let pause = session == nil ? try lastBreak() : nil
        return FocusStatusReport(session, now: try session.map(now(for:)) ?? now, break: pause)
    }
}
