import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// `grove pause weeks`: each app's pauses week by week, against the week before.
struct PauseWeeks: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "weeks",
        abstract: "Pauses per app and week: attempts against the week before, kept away, delayed, the gate's integrity.")
    @OptionGroup var options: GlobalOptions
    @Option(name: .long, help: "Only this app.", completion: Completions.apps) var app: String?

    func run() throws { try Self.run(options.plain, app: app) }

    /// The figures, for whichever parse made the command (`EverydayParse.immediate`: every app).
    static func run(_ options: PlainOptions, app: String? = nil) throws {
        let db = try options.open()
        let weeks = try db.pause.weeks(appId: app)
        if options.json { return try Output.json(weeks) }
        guard !weeks.isEmpty else { return print("No pauses in the last 30 days.") }
        let names = try db.pause.appNames(), style = Style(.current())
        print(style.bold("Week                     App            Pauses  vs before  Kept away  Delayed  On the site after Proceed  Gate"))
        for w in weeks {
            let week = w.weekText
            let change = PauseWeek.changeText(w.pauses, before: w.previousPauses), kept = w.keptAwayText
            print(
                "\(week.padding(toLength: 24, withPad: " ", startingAt: 0)) \((names[w.appId] ?? w.appId).padding(toLength: 14, withPad: " ", startingAt: 0)) \(String(w.pauses).leftPad(6))  \(change.leftPad(9))  \(kept.leftPad(9))  \(String(w.delayed).leftPad(7))  \(w.visitsText.padding(toLength: 25, withPad: " ", startingAt: 0))  \(w.integrityText)"
            )
        }
        print(
            style.dim(
                """
                Pauses: attempts through the gate · vs before: against the week before (for this week, the same days of it; — when older than 30 days)
                Kept away: of the pauses that ended, the share after which the app was neither opened nor tried again within 10 minutes
                \(UsageStatistics.delayedMeaning.term): \(UsageStatistics.delayedMeaning.meaning)
                On the site after Proceed: as the browser extension measured it (— where nothing was measured)
                Gate: what loosened it — visits a grace window let through, trees withered to open an app, the gate switched off, blocks removed or made not strict, emergency passes; "held" when nothing did
                """))
        for (appId, rows) in Dictionary(grouping: weeks, by: \.appId).sorted(by: { $0.key < $1.key }) {
            guard let week = rows.first else { continue }
            print(
                style.dim(
                    "\(names[appId] ?? appId): time saved counts \(UsageStatistics.visitText(seconds: week.savedPerVisit, measured: week.savedPerVisitMeasured))"
                ))
        }
    }
}
