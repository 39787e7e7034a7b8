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
        guard var running = try FocusBreakRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM focus_break"))?.model(),
            running.isRunning(at: now)
        else { return false }
        running.end(at: now)
        try FocusBreakRecord(running).update(db)
        return true
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
            let now = environment.now()
            guard try database.endBreak(at: now, db),
                let skipped = try FocusBreakRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM focus_break"))?.model()
            else { throw FocusError.noBreak }
            return skipped
        }
    }

    /// The running session, or else the running break, as every face reports it at one instant.
    public func status() throws -> FocusStatusReport {
        let session = try current()
        let pause = session == nil ? try lastBreak() : nil
        return FocusStatusReport(session, now: try session.map(now(for:)) ?? environment.now(), break: pause)
    }
}
