import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// The `grove` command. Thin for now: the dashboard; the full command tree grows here.
public struct GroveCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "grove",
        abstract: "Grove: focus sessions that grow a forest, timers, mindful pauses and intentions.",
        discussion: """
            With no subcommand, prints today's dashboard: the current intention, the running focus \
            session, today's trees and focus time, and the current streak.

            Data lives in $GROVE_HOME/grove.sqlite, else $XDG_DATA_HOME/grove/grove.sqlite, \
            else ~/.local/share/grove/grove.sqlite.
            """)

    @Option(name: .long, help: "Path of the SQLite database to use.")
    public var database: String?

    @Flag(name: .long, help: "Print JSON instead of text.")
    public var json = false

    public init() {}

    public func run() throws {
        let db = try AppDatabase.open(path: database ?? AppDatabase.defaultPath())
        let dashboard = try Dashboard.load(from: db)
        if json {
            print(String(decoding: try GroveExport.makeEncoder().encode(dashboard), as: UTF8.self))
        } else {
            print(dashboard.text)
        }
    }
}

/// What `grove` shows with no arguments.
public struct Dashboard: Codable, Sendable {
    public var intention: Intention?
    public var activeSession: FocusSession?
    public var remaining: TimeInterval?
    public var stats: ForestStats

    public static func load(from db: AppDatabase) throws -> Dashboard {
        let session = try db.currentFocusSession()
        let remaining = try session.map { $0.remaining(at: try db.now(for: $0)) }
        return Dashboard(intention: try db.currentIntention(), activeSession: session, remaining: remaining, stats: try db.forestStats())
    }

    public var text: String {
        var lines: [String] = []
        if let intention {
            lines.append("Intention (\(intention.scope.rawValue)): \(intention.text)")
        } else {
            lines.append("No intention set for today.")
        }
        if let activeSession, let remaining {
            let m = Int(remaining) / 60, s = Int(remaining) % 60
            lines.append("Focus: \(activeSession.state.displayName), \(m):\(s < 10 ? "0" : "")\(s) left")
        }
        lines.append("Today: \(stats.todaysTrees) tree\(stats.todaysTrees == 1 ? "" : "s"), \(ForestStats.formatDuration(stats.todaysFocusTime)) focused")
        lines.append("Streak: \(stats.currentStreak) day\(stats.currentStreak == 1 ? "" : "s") (longest \(stats.longestStreak))")
        return lines.joined(separator: "\n")
    }
}
