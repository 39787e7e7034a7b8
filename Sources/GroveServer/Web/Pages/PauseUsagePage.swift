import Foundation
import GroveCore
import GroveStore
import HTTPTypes
import Hummingbird

struct PauseUsagePage: Encodable {
    struct Row: Encodable {
        var day: String; var app: String; var total: Int; var completed: Int; var exited: Int; var notOpened: Int; var delayed: Int
        var average: String
        var rate: Int;
        var meets: Bool; var streak: Int; var streakWord: String
    }
    var title = "Pause"
    var bare = false
    var rows: [Row]
    var empty: Bool
    /// Adaptive friction, one row per gated app (and any app that has it on): its switch, its length now, its last review.
    struct Friction: Encodable { var id: String; var app: String; var on: Bool; var length: String; var review: String }
    var friction: [Friction]
    /// The words every face uses for these columns.
    var leftMeaning = UsageStatistics.leftMeaning.meaning
    var notOpenedMeaning = UsageStatistics.notOpenedMeaning.meaning
    var timeSavedMeaning = UsageStatistics.timeSavedMeaning.meaning
    var delayedMeaning = UsageStatistics.delayedMeaning.meaning
    /// Over the 30 days: the estimate, the visits not made behind it, and the pauses that only delayed one.
    var timeSaved = ""
    /// "measured", "an estimate" or "partly measured" (`UsageStatistics.timeSavedBasis`), and each
    /// app's visit length behind it (`UsageStatistics.visitText`).
    var timeSavedBasis = ""
    var visitLengths = ""
    var keptAway = 0
    var keptAwayWord = "times"
    var delayed = 0
    /// Week by week (`PauseWeek`), newest first.
    struct Week: Encodable {
        var week: String; var app: String; var pauses: Int; var change: String; var keptAway: String; var delayed: Int
        /// Minutes on the site after Proceed (`PauseWeek.visitsText`) and the gate's integrity (`PauseWeek.integrityText`).
        var visits: String; var integrity: String; var held: Bool
    }
    var weeks: [Week] = []
}

extension WebController {
    /// Usage per app and day (30 days), newest first, with the apps' names.
    func pauseUsage() throws -> PauseUsagePage {
        let names = try database.pause.appNames()
        let stats = try database.pause.statistics()
        let rows = stats.map { s in
            PauseUsagePage.Row(
                day: s.date.description, app: names[s.appId] ?? s.appId, total: s.totalSessions, completed: s.completedSessions,
                exited: s.exitedSessions, notOpened: s.notOpenedSessions, delayed: s.delayedSessions,
                average: String(format: "%.0f", s.avgTimeSpent),
                rate: Int((s.completionRate * 100).rounded()),
                meets: s.meetsTarget, streak: s.streakCount, streakWord: s.streakCount == 1 ? "day" : "days")
        }
        let base = try database.pause.preferences().timerDuration
        let adaptive = Dictionary(try database.pause.friction().map { ($0.appId, $0) }, uniquingKeysWith: { a, _ in a })
        let friction = try database.pause.apps().filter { $0.isEnabled || adaptive[$0.id] != nil }.map { app in
            let f = adaptive[app.id]
            return PauseUsagePage.Friction(
                id: app.id, app: app.displayName, on: f != nil, length: "\(f?.effectiveDuration(base: base) ?? base) s",
                review: f?.reviewDescription ?? "off")
        }
        let keptAway = stats.reduce(0) { $0 + $1.keptAwaySessions }
        let weeks = try database.pause.weeks().map { w in
            PauseUsagePage.Week(
                week: w.weekText, app: names[w.appId] ?? w.appId, pauses: w.pauses,
                change: PauseWeek.changeText(w.pauses, before: w.previousPauses), keptAway: w.keptAwayText, delayed: w.delayed,
                visits: w.visitsText, integrity: w.integrityText, held: w.held)
        }
        let lengths = Dictionary(grouping: stats, by: \.appId).compactMap { appId, days in
            days.first.map {
                "\(names[appId] ?? appId) \(UsageStatistics.visitText(seconds: $0.savedPerVisit, measured: $0.savedPerVisitMeasured))"
            }
        }.sorted().joined(separator: "; ")
        return PauseUsagePage(
            rows: rows, empty: rows.isEmpty, friction: friction,
            timeSaved: ForestStats.formatDuration(UsageStatistics.timeSaved(stats)), timeSavedBasis: UsageStatistics.timeSavedBasis(stats),
            visitLengths: lengths, keptAway: keptAway,
            keptAwayWord: keptAway == 1 ? "time" : "times", delayed: stats.reduce(0) { $0 + $1.delayedSessions }, weeks: weeks)
    }
}
