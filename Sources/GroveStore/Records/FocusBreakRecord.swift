import Foundation
import GRDB
import GroveCore

/// The row of `focus_break`: the break after the last planted tree (at most one row).
struct FocusBreakRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "focus_break"

    var sessionId: String
    var kind: String
    var startTime: Int64
    var durationMs: Int64
    var endedAt: Int64?
    /// Its "break over" notice went out (claimed once, by whoever noticed first).
    var notified = false
    /// The clock reading when it began: what measures it since (`ClockReading.resolved(since:)`).
    var anchorBootId: String?
    var anchorSinceBoot: Double?
    var anchorWall: Int64?

    init(row: Row) throws {
        sessionId = row["session_id"]; kind = row["kind"]; startTime = row["start_time"]; durationMs = row["duration_ms"]
        endedAt = row["ended_at"]; notified = row["notified"]
        anchorBootId = row["anchor_boot_id"]; anchorSinceBoot = row["anchor_since_boot"]; anchorWall = row["anchor_wall"]
    }

    init(_ b: FocusBreak, anchor: ClockReading?) {
        sessionId = b.sessionID.uuidString
        kind = b.kind.rawValue
        startTime = b.startTime.groveMillis
        durationMs = b.duration.groveMillis
        endedAt = b.endedEarlyAt?.groveMillis
        anchorBootId = anchor?.bootID
        anchorSinceBoot = anchor?.sinceBoot
        anchorWall = anchor?.wall.groveMillis
    }

    var anchor: ClockReading? {
        anchorWall.map { ClockReading(wall: Date(groveMillis: $0), bootID: anchorBootId, sinceBoot: anchorSinceBoot) }
    }

    func encode(to container: inout PersistenceContainer) {
        container["session_id"] = sessionId; container["kind"] = kind; container["start_time"] = startTime
        container["duration_ms"] = durationMs; container["ended_at"] = endedAt; container["notified"] = notified
        container["anchor_boot_id"] = anchorBootId; container["anchor_since_boot"] = anchorSinceBoot; container["anchor_wall"] = anchorWall
    }

    func model() throws -> FocusBreak {
        guard let id = UUID(uuidString: sessionId) else {
            throw InvalidField("sessionId", "Stored break's session id \(sessionId) is not a UUID")
        }
        guard let kind = PomodoroBreak.Kind(rawValue: kind) else { throw InvalidField("kind", "Unknown break kind \(self.kind)") }
        return FocusBreak(
            sessionID: id, kind: kind, startTime: Date(groveMillis: startTime), duration: TimeInterval(groveMillis: durationMs),
            endedEarlyAt: endedAt.map(Date.init(groveMillis:)))
    }
}
