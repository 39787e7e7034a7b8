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
    /// When it reaches its length (running runs only), on the wall clock as it read at the status.
    public var dueAt: Date?

    /// The run at `now` (its own timeline, see `AppDatabase.runNow`); `wall`: the wall clock at that
    /// moment, which `dueAt` is given on (a page counts down to it with the machine's clock).
    public init(_ run: TimerRun, name: String, colorHex: String, now: Date, wall: Date? = nil) {
        timerId = run.timerId
        self.name = name
        self.colorHex = colorHex
        state = run.state(at: now)
        remaining = run.remaining(at: now)
        duration = run.duration
        startedAt = run.startedAt
        dueAt = state == .running ? (wall ?? now).addingTimeInterval(remaining).groveRoundedToMillis : nil
    }
}

extension AppDatabase {
    // MARK: Reads

    func runStatuses(_ clause: String, _ arguments: StatementArguments = []) throws -> [TimerRunStatus] {
        let reading = environment.clockReading()
        return try writer.snapshotRead { db in
            try db.cachedRows("SELECT r.*, t.name, t.color_hex FROM timer_run r JOIN timer t ON t.id = r.timer_id \(clause)", arguments)
                .compactMap { row in
                    try Self.runRecord(row).map {
                        TimerRunStatus(
                            $0, name: row["name"], colorHex: row["color_hex"], now: Self.runNow(row, reading), wall: reading.wall)
                    }
                }
        }
    }

    /// The instant to evaluate a run at: measured by the monotonic clock from the reading taken at its
    /// last transition (see `ClockReading.resolved(since:)`), so a wall clock that steps neither ends a
    /// run early nor rings it late; the wall clock for a run from before readings were kept.
    static func runNow(_ row: Row, _ reading: ClockReading) -> Date {
        reading.resolved(since: runAnchor(row)).now.groveRoundedToMillis
    }

    static func runAnchor(_ row: Row) -> ClockReading? {
        guard let wall = row["anchor_wall"] as Int64? else { return nil }
        return ClockReading(wall: Date(groveMillis: wall), bootID: row["anchor_boot_id"], sinceBoot: row["anchor_since_boot"])
    }

    // MARK: Writes

    /// `at`: the instant of the change when it was made earlier (queued offline: `ActionInstant`),
    /// never before the state it changes began; the run's anchor is this reading either way.
    func changeRun(_ timerId: UUID, at requested: Date? = nil, _ change: (inout TimerRun, Date) throws -> Void) throws
        -> TimerRunStatus
    {
        let reading = environment.clockReading()
        return try write { db in
            guard let timer = try timer(db, id: timerId) else { throw NotFoundError("timer", timerId.uuidString) }
            guard let row = try db.cachedRow("SELECT * FROM timer_run WHERE timer_id = ?", [timerId.uuidString]),
                var run = try Self.runRecord(row)
            else {
                throw TimerRunError.noRun(timer.name)
            }
            let now = Self.runNow(row, reading)
            let at = try requested.map { max(try ActionInstant.resolve($0, now: now), run.pausedAt ?? run.startedAt).groveRoundedToMillis }
            try change(&run, at ?? now)
            // The transition is the new anchor: the run's own timeline continues from it.
            try db.cachedExecute(
                """
                UPDATE timer_run SET paused_ms = ?, paused_at = ?, anchor_wall = ?, anchor_boot_id = ?, anchor_since_boot = ?
                WHERE timer_id = ?
                """,
                [
                    run.pausedDuration.groveMillis, run.pausedAt?.groveMillis, now.groveMillis, reading.bootID, reading.sinceBoot,
                    timerId.uuidString,
                ])
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

    /// Starts the timer from its full length now, or `at` an earlier instant (queued offline:
    /// `ActionInstant`). A run it had, finished or not, is replaced.
    @discardableResult
    public func start(timerId: UUID, at: Date? = nil) throws -> TimerRunStatus {
        let reading = environment.clockReading()
        let startedAt = try ActionInstant.resolve(at, now: reading.wall).groveRoundedToMillis
        return try write { db in
            guard let timer = try database.timer(db, id: timerId) else { throw NotFoundError("timer", timerId.uuidString) }
            let run = TimerRun(timerId: timerId, duration: TimeInterval(timer.durationInSeconds), startedAt: startedAt)
            try db.cachedExecute(
                """
                INSERT OR REPLACE INTO timer_run (timer_id, duration_ms, started_at, paused_ms, paused_at, notified,
                    anchor_wall, anchor_boot_id, anchor_since_boot)
                VALUES (?, ?, ?, 0, NULL, 0, ?, ?, ?)
                """,
                [
                    timerId.uuidString, run.duration.groveMillis, run.startedAt.groveMillis, reading.wall.groveMillis, reading.bootID,
                    reading.sinceBoot,
                ])
            return TimerRunStatus(run, name: timer.name, colorHex: timer.colorHex, now: reading.wall)
        }
    }

    /// Pauses the timer's run.
    @discardableResult
    public func pause(timerId: UUID, at: Date? = nil) throws -> TimerRunStatus {
        try database.changeRun(timerId, at: at) { run, now in try run.pause(at: now) }
    }

    /// Resumes the timer's paused run.
    @discardableResult
    public func resume(timerId: UUID, at: Date? = nil) throws -> TimerRunStatus {
        try database.changeRun(timerId, at: at) { run, now in try run.resume(at: now) }
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
        let reading = environment.clockReading()
        return try write { db in
            guard let row = try db.cachedRow("SELECT * FROM timer_run WHERE timer_id = ? AND notified = 0", [timerId.uuidString]),
                let run = try AppDatabase.runRecord(row), run.state(at: AppDatabase.runNow(row, reading)) == .finished
            else { return false }
            try db.cachedExecute("UPDATE timer_run SET notified = 1 WHERE timer_id = ? AND notified = 0", [timerId.uuidString])
            return db.changesCount > 0
        }
    }

    /// Runs that reached their length and were not announced yet, and the next instant one will (on
    /// the wall clock as it reads now: what a sleeping service waits for).
    public func notices() throws -> (due: [TimerRunStatus], next: Date?) {
        let reading = environment.clockReading()
        return try writer.snapshotRead { db in
            let rows = try db.cachedRows(
                """
                SELECT r.*, t.name, t.color_hex FROM timer_run r JOIN timer t ON t.id = r.timer_id
                WHERE r.notified = 0 AND r.paused_at IS NULL ORDER BY r.started_at + r.paused_ms + r.duration_ms
                """)
            var due: [TimerRunStatus] = []
            var next: Date?
            for row in rows {
                guard let run = try AppDatabase.runRecord(row) else { continue }
                let now = AppDatabase.runNow(row, reading)
                switch run.state(at: now) {
                case .finished: due.append(TimerRunStatus(run, name: row["name"], colorHex: row["color_hex"], now: now))
                case .running:
                    let wallDue = reading.wall.addingTimeInterval(run.remaining(at: now))
                    next = min(next ?? wallDue, wallDue)
                case .paused: break
                }
            }
            return (due, next)
        }
    }
}
