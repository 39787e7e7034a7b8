import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// `grove pause stats`: usage per app and day against the 60% target.
struct PauseStats: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stats", abstract: "Pause usage per app and day (last 30 days).")
    @OptionGroup var options: GlobalOptions
    @Option(name: .long, help: "Only this app.", completion: Completions.apps) var app: String?

    func run() throws { try Self.run(options.plain, app: app) }

    /// The figures, for whichever parse made the command (`EverydayParse.immediate`: every app).
    static func run(_ options: PlainOptions, app: String? = nil) throws {
        let db = try options.open()
        let stats = try db.pause.statistics(appId: app)
        if options.json { return try Output.json(stats) }
        guard !stats.isEmpty else { return print("No pauses in the last 30 days.") }
        let style = Style(.current())
        print(style.bold("Day         App            Pauses  Done  Left  Not opened  Delayed  Avg    Rate   Streak"))
        for s in stats {
            let rate = "\(Int((s.completionRate * 100).rounded()))%"
            let mark = s.meetsTarget ? style.green("✓") : style.yellow("·")
            print(
                "\(s.date)  \(s.appId.padding(toLength: 14, withPad: " ", startingAt: 0)) \(String(s.totalSessions).leftPad(6))  \(String(s.completedSessions).leftPad(4))  \(String(s.exitedSessions).leftPad(4))  \(String(s.notOpenedSessions).leftPad(10))  \(String(s.delayedSessions).leftPad(7))  \(String(format: "%4.0fs", s.avgTimeSpent))  \(rate.leftPad(4)) \(mark) \(String(s.streakCount).leftPad(5))"
            )
        }
        let keptAway = stats.reduce(0) { $0 + $1.keptAwaySessions }, delayed = stats.reduce(0) { $0 + $1.delayedSessions }
        print(
            "\(UsageStatistics.timeSavedMeaning.term): ≈ \(ForestStats.formatDuration(UsageStatistics.timeSaved(stats))), \(UsageStatistics.timeSavedBasis(stats)) (\(keptAway) time\(keptAway == 1 ? "" : "s") kept away\(delayed > 0 ? "; \(delayed) only delayed" : ""))"
        )
        for (appId, days) in Dictionary(grouping: stats, by: \.appId).sorted(by: { $0.key < $1.key }) {
            guard let day = days.first else { continue }
            print("  \(appId): \(UsageStatistics.visitText(seconds: day.savedPerVisit, measured: day.savedPerVisitMeasured))")
        }
        print(
            style.dim(
                """
                Pauses: times opened through the gate · Done: countdown waited out to 0:00
                \(UsageStatistics.leftMeaning.term): \(UsageStatistics.leftMeaning.meaning)
                \(UsageStatistics.notOpenedMeaning.term): \(UsageStatistics.notOpenedMeaning.meaning)
                \(UsageStatistics.delayedMeaning.term): \(UsageStatistics.delayedMeaning.meaning)
                \(UsageStatistics.timeSavedMeaning.term): \(UsageStatistics.timeSavedMeaning.meaning)
                Avg: seconds in the pause · Rate: done ÷ pauses, ✓ at the 60% target · Streak: days in a row with a pause done
                Kept for 30 days. Week by week: `grove pause weeks`.
                """))
    }
}
