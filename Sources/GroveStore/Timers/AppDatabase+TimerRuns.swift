import Foundation
import GRDB
import GroveCore

/// A run as every face shows it: the timer's name and colour beside the figures at one instant.
public struct TimerRunStatus: Sendable, Codable, Equatable {
    public var timerId: UUID
    public var name: String
    public var colorHex: String
    public var state: TimerRun.State
    /// Seconds left at the instant of the status.
    public var remaining: TimeInterval
    /// The run's length, seconds.
    public var duration: TimeInterval
    public var startedAt: Date
    /// When it reaches its length (running runs only).
    public var dueAt: Date?

    public init(_ run: TimerRun, name: String, colorHex: String, now: Date) {
        timerId = run.timerId
        self.name = name
        self.colorHex = colorHex
        state = run.state(at: now)
        remaining = run.remaining(at: now)
        duration = run.duration
        startedAt = run.startedAt
        dueAt = state == .running ? run.dueAt : nil
    }
}

extension AppDatabase {
    // MARK: Reads

    func runStatuses(_ clause: String, _ arguments: StatementArguments = []) throws -> [TimerRunStatus] {
        let now = environment.now().groveRoundedToMillis
        return try writer.snapshotRead { db in
            try db.cachedRows("SELECT r.*, t.name, t.color_hex FROM timer_run r JOIN timer t ON t.id = r.timer_id \(clause)", arguments)
                .compactMap { row in
                    try Self.runRecord(row).map { TimerRunStatus($0, name: row["name"], colorHex: row["color_hex"], now: now) }
                }
        }
    }

    // MARK: Writes

    func changeRun(_ timerId: UUID, _ change: (inout TimerRun, Date) throws -> Void) throws -> TimerRunStatus {
        try write { db in
            guard let timer = try timer(db, id: timerId) else { throw NotFoundError("timer", timerId.uuidString) }
            guard let row = try db.cachedRow("SELECT * FROM timer_run WHERE timer_id = ?", [timerId.uuidString]),
                var run = try Self.runRecord(row)
            else {
                throw TimerRunError.noRun(timer.name)
            }
            let now = environment.now().groveRoundedToMillis
            try change(&run, now)
            try db.cachedExecute(
                "UPDATE timer_run SET paused_ms = ?, paused_at = ? WHERE timer_id = ?",
                [run.pausedDuration.groveMillis, run.pausedAt?.groveMillis, timerId.uuidString])
            return TimerRunStatus(run, name: timer.name, colorHex: timer.colorHex, now: now)
        }
    }

    static func runRecord(_ row: Row) throws -> TimerRun? {
        guard let id = UUID(uuidString: row["timer_id"]) else { return nil }
        return TimerRun(
            timerId: id, duration: TimeInterval(groveMillis: row["duration_ms"]), startedAt: Date(groveMillis: row["started_at"]),
            pausedDuration: TimeInterval(groveMillis: row["paused_ms"]), pausedAt: (row["paused_at"] as Int64?).map(Date.init(groveMillis:))
        )
    }
}

extension TimersRoom {
    /// Every run with its timer, oldest start first, as of now.
    public func runs() throws -> [TimerRunStatus] {
        try database.runStatuses("ORDER BY r.started_at, t.name COLLATE NOCASE, r.timer_id")
    }

    /// One timer's run as of now, if it has one (by its key: a live screen asks several times a second).
    public func run(timerId: UUID) throws -> TimerRunStatus? {
        try database.runStatuses("WHERE r.timer_id = ?", [timerId.uuidString]).first
    }

    /// Starts the timer from its full length now (a run it had, finished or not, is replaced).
    @discardableResult
    public func start(timerId: UUID) throws -> TimerRunStatus {
        try write { db in
            guard let timer = try database.timer(db, id: timerId) else { throw NotFoundError("timer", timerId.uuidString) }
            let run = TimerRun(
                timerId: timerId, duration: TimeInterval(timer.durationInSeconds), startedAt: environment.now().groveRoundedToMillis)
            try db.cachedExecute(
                """
                INSERT OR REPLACE INTO timer_run (timer_id, duration_ms, started_at, paused_ms, paused_at, notified) VALUES (?, ?, ?, 0, NULL, 0)
                """, [timerId.uuidString, run.duration.groveMillis, run.startedAt.groveMillis])
            return TimerRunStatus(run, name: timer.name, colorHex: timer.colorHex, now: run.startedAt)
        }
    }

    /// Pauses the timer's run.
    @discardableResult
    public func pause(timerId: UUID) throws -> TimerRunStatus {
        try database.changeRun(timerId) { run, now in try run.pause(at: now) }
    }

    /// Resumes the timer's paused run.
    @discardableResult
    public func resume(timerId: UUID) throws -> TimerRunStatus {
        try database.changeRun(timerId) { run, now in try run.resume(at: now) }
    }

    /// Stops the timer's run (nothing left of it); whether there was one.
    @discardableResult
    public func stop(timerId: UUID) throws -> Bool {
        try write { db in
            try db.cachedExecute("DELETE FROM timer_run WHERE timer_id = ?", [timerId.uuidString])
            return db.changesCount > 0
        }
    }

    /// Takes the right to announce a run that has reached its length: true once per run, for whoever
    /// asks first (the server, a terminal, a page), so that nobody is told twice.
    public func claimNotice(timerId: UUID) throws -> Bool {
        let now = environment.now().groveRoundedToMillis.groveMillis
        return try write { db in
            try db.cachedExecute(
                """
                UPDATE timer_run SET notified = 1
                WHERE timer_id = ? AND notified = 0 AND paused_at IS NULL AND started_at + paused_ms + duration_ms <= ?
                """, [timerId.uuidString, now])
            return db.changesCount > 0
        }
    }

    /// Runs that reached their length and were not announced yet, and the next instant one will.
    public func notices() throws -> (due: [TimerRunStatus], next: Date?) {
        let now = environment.now().groveRoundedToMillis
        return try writer.snapshotRead { db in
            let rows = try db.cachedRows(
                """
                SELECT r.*, t.name, t.color_hex FROM timer_run r JOIN timer t ON t.id = r.timer_id
                WHERE r.notified = 0 AND r.paused_at IS NULL ORDER BY r.started_at + r.paused_ms + r.duration_ms
                """)
            let runs = try rows.compactMap { row in try AppDatabase.runRecord(row).map { ($0, row) } }
            let due = runs.filter { $0.0.state(at: now) == .finished }
                .map { TimerRunStatus($0.0, name: $0.1["name"], colorHex: $0.1["color_hex"], now: now) }
            return (due, runs.compactMap { $0.0.state(at: now) == .running ? $0.0.dueAt : nil }.min())
        }
    }
}
