import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// What `grove` shows with no arguments.
public struct Dashboard: Codable, Sendable {
    public var intention: Intention?
    public var activeSession: FocusSession?
    public var remaining: TimeInterval?
    public var stats: ForestStats

    public static func load(from db: AppDatabase) throws -> Dashboard {
        let session = try db.focus.current()
        let remaining = try session.map { $0.remaining(at: try db.focus.now(for: $0)) }
        return Dashboard(intention: try db.intentions.current(), activeSession: session, remaining: remaining, stats: try db.focus.stats())
    }

    public var text: String {
        var lines: [String] = []
        if let intention {
            lines.append("Intention (\(intention.scope.rawValue)): \(intention.text)")
        } else {
            lines.append("No intention set for today.")
        }
        if let activeSession, let remaining {
            // One formatter for time left in every face (`grove now`, `focus status`: 1:30:00, not 90:00).
            lines.append("Focus: \(activeSession.state.displayName), \(DurationParser.clock(remaining)) left")
        }
        lines.append(
            "Today: \(stats.todaysTrees) tree\(stats.todaysTrees == 1 ? "" : "s"), \(ForestStats.formatDuration(stats.todaysFocusTime)) focused"
        )
        lines.append("Streak: \(stats.currentStreak) day\(stats.currentStreak == 1 ? "" : "s") (longest \(stats.longestStreak))")
        return lines.joined(separator: "\n")
    }
}
