import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// What `grove` shows with no arguments.
public struct Dashboard: Codable, Sendable {
    public var intention: Intention?
    public var activeSession: FocusSession?
    /// Time left of a planned session; nil for an open-ended one, which counts up.
    public var remaining: TimeInterval?
    /// Where the session stands, as every face says it ("25:00 left", "12:34 so far").
    public var time: String?
    public var stats: ForestStats

    public static func load(from db: AppDatabase) throws -> Dashboard {
        let session = try db.focus.current()
        let now = try session.map { try db.focus.now(for: $0) }
        return Dashboard(
            intention: try db.intentions.current(), activeSession: session,
            remaining: session.flatMap { now.flatMap($0.remaining(at:)) },
            time: session.flatMap { session in now.map(session.timeText(at:)) }, stats: try db.focus.stats())
    }

    public var text: String {
        var lines: [String] = []
        if let intention {
            lines.append("Intention (\(intention.scope.rawValue)): \(intention.text)")
        } else {
            lines.append("No intention set for today.")
        }
        if let activeSession, let time {
            // One phrase for a session's time in every face (`grove now`, `focus status`: 1:30:00 left).
            lines.append("Focus: \(activeSession.state.displayName), \(time)")
        }
        lines.append(
            "Today: \(stats.todaysTrees) tree\(stats.todaysTrees == 1 ? "" : "s"), \(ForestStats.formatDuration(stats.todaysFocusTime)) focused"
        )
        lines.append("Streak: \(stats.currentStreak) day\(stats.currentStreak == 1 ? "" : "s") (longest \(stats.longestStreak))")
        return lines.joined(separator: "\n")
    }
}
