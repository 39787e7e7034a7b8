import Foundation
import GRDB
import GroveCore

/// A row of `focus_session`.
struct FocusSessionRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "focus_session"

    var id: String
    var startTime: Int64
    var endTime: Int64?
    var state: String
    var durationMs: Int64
    var pausedMs: Int64
    var plannedMs: Int64
    var pausedAt: Int64?
    var createdAt: Int64
    var timeZone: String
    var endDay: String?
    var clockUncertain: Bool
    var anchorBootId: String?
    var anchorSinceBoot: Double?
    var anchorWall: Int64?
    /// JSON array of the session's tags (`TagsColumn`); nil: none.
    var tags: String?
    /// NULL (a row synced from a Grove before open-ended sessions) reads as planned.
    var openEnded: Bool?

    enum Columns {
        static let state = Column("state")
        static let endTime = Column("end_time")
        static let endDay = Column("end_day")
        static let startTime = Column("start_time")
    }

    init(row: Row) throws {
        id = row[0]; startTime = row[1]; endTime = row[2]; state = row[3]; durationMs = row[4]; pausedMs = row[5]
        plannedMs = row[6]; pausedAt = row[7]; createdAt = row[8]; timeZone = row[9]; endDay = row[10]
        clockUncertain = row[11]; anchorBootId = row[12]; anchorSinceBoot = row[13]; anchorWall = row[14]
        tags = row[15]; openEnded = row[16]
    }

    static var databaseSelection: [any SQLSelectable] {
        [
            Column("id"), Column("start_time"), Column("end_time"), Column("state"), Column("duration_ms"), Column("paused_ms"),
            Column("planned_ms"), Column("paused_at"), Column("created_at"), Column("time_zone"), Column("end_day"),
            Column("clock_uncertain"), Column("anchor_boot_id"), Column("anchor_since_boot"), Column("anchor_wall"), Column("tags"),
            Column("open_ended"),
        ]
    }

    func encode(to container: inout PersistenceContainer) {
        container["id"] = id; container["start_time"] = startTime; container["end_time"] = endTime; container["state"] = state
        container["duration_ms"] = durationMs; container["paused_ms"] = pausedMs; container["planned_ms"] = plannedMs
        container["paused_at"] = pausedAt; container["created_at"] = createdAt; container["time_zone"] = timeZone
        container["end_day"] = endDay; container["clock_uncertain"] = clockUncertain; container["anchor_boot_id"] = anchorBootId
        container["anchor_since_boot"] = anchorSinceBoot; container["anchor_wall"] = anchorWall
        container["tags"] = tags; container["open_ended"] = openEnded
    }

    init(_ s: FocusSession, anchor: ClockReading? = nil) {
        id = s.id.uuidString
        startTime = s.startTime.groveMillis
        endTime = s.endTime?.groveMillis
        state = s.state.rawValue
        durationMs = s.duration.groveMillis
        pausedMs = s.pausedDuration.groveMillis
        plannedMs = s.plannedDuration.groveMillis
        pausedAt = s.pausedAt?.groveMillis
        createdAt = s.createdAt.groveMillis
        timeZone = s.timeZoneIdentifier
        endDay = s.endDay?.description
        clockUncertain = s.clockUncertain
        anchorBootId = anchor?.bootID
        anchorSinceBoot = anchor?.sinceBoot
        anchorWall = anchor?.wall.groveMillis
        tags = TagsColumn.encode(s.tags)
        openEnded = s.openEnded
    }

    var anchor: ClockReading? {
        anchorWall.map { ClockReading(wall: Date(groveMillis: $0), bootID: anchorBootId, sinceBoot: anchorSinceBoot) }
    }

    func model() throws -> FocusSession {
        guard let uuid = UUID(uuidString: id) else { throw InvalidField("id", "Stored focus session id \(id) is not a UUID") }
        guard let state = SessionState(rawValue: state) else { throw InvalidField("state", "Unknown state \(self.state)") }
        return FocusSession(
            id: uuid, startTime: Date(groveMillis: startTime), endTime: endTime.map(Date.init(groveMillis:)), state: state,
            duration: TimeInterval(groveMillis: durationMs), pausedDuration: TimeInterval(groveMillis: pausedMs),
            createdAt: Date(groveMillis: createdAt), plannedDuration: TimeInterval(groveMillis: plannedMs),
            pausedAt: pausedAt.map(Date.init(groveMillis:)), timeZoneIdentifier: timeZone, endDay: endDay.flatMap { LocalDay($0) },
            clockUncertain: clockUncertain, tags: TagsColumn.decode(tags), openEnded: openEnded ?? false)
    }
}

/// A row of `focus_day`: the trigger-maintained totals of one local day.
struct FocusDayRecord: FetchableRecord, TableRecord {
    static let databaseTableName = "focus_day"
    var day: String
    var trees: Int
    var abandoned: Int
    var focusMs: Int64

    init(row: Row) throws {
        day = row[0]; trees = row[1]; abandoned = row[2]; focusMs = row[3]
    }

    var totals: DailyFocusTotals? {
        LocalDay(day).map { DailyFocusTotals(day: $0, trees: trees, abandoned: abandoned, focusTime: TimeInterval(groveMillis: focusMs)) }
    }
}

/// The single row of `focus_preferences`.
struct FocusPreferencesRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "focus_preferences"
    var focusMs: Int64, shortBreakMs: Int64, longBreakMs: Int64, longBreakInterval: Int

    init(row: Row) throws {
        focusMs = row["focus_ms"]; shortBreakMs = row["short_break_ms"]; longBreakMs = row["long_break_ms"];
        longBreakInterval = row["long_break_interval"]
    }

    init(_ p: FocusPreferences) {
        focusMs = p.focusDuration.groveMillis; shortBreakMs = p.shortBreakDuration.groveMillis
        longBreakMs = p.longBreakDuration.groveMillis; longBreakInterval = p.longBreakInterval
    }

    func encode(to container: inout PersistenceContainer) {
        container["id"] = 1; container["focus_ms"] = focusMs; container["short_break_ms"] = shortBreakMs
        container["long_break_ms"] = longBreakMs; container["long_break_interval"] = longBreakInterval
    }

    var model: FocusPreferences {
        FocusPreferences(
            focusDuration: TimeInterval(groveMillis: focusMs), shortBreakDuration: TimeInterval(groveMillis: shortBreakMs),
            longBreakDuration: TimeInterval(groveMillis: longBreakMs), longBreakInterval: longBreakInterval)
    }
}
