import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// `grove pause weeks`: each app's pauses week by week, against the week before.
struct PauseWeeks: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "weeks", abstract: "Pauses per app and week: attempts against the week before, kept away, delayed.")
    @OptionGroup var options: GlobalOptions
    @Option(name: .long, help: "Only this app.", completion: Completions.apps) var app: String?

    func run() throws {
        let db = try options.open()
        let weeks = try db.pause.weeks(appId: app)
        if options.json { return try Output.json(weeks) }
        guard !weeks.isEmpty else { return print("No pauses in the last 30 days.") }
        let names = try db.pause.appNames(), style = Style(.current())
        print(style.bold("Week                     App            Pauses  vs before  Kept away  Delayed  Passes"))
        for w in weeks {
            let week = w.weekText
            let change = PauseWeek.changeText(w.pauses, before: w.previousPauses), kept = w.keptAwayText
            print(
                "\(week.padding(toLength: 24, withPad: " ", startingAt: 0)) \((names[w.appId] ?? w.appId).padding(toLength: 14, withPad: " ", startingAt: 0)) \(String(w.pauses).leftPad(6))  \(change.leftPad(9))  \(kept.leftPad(9))  \(String(w.delayed).leftPad(7))  \(String(w.emergencyPasses).leftPad(6))"
            )
        }
        print(
            style.dim(
                """
                Pauses: attempts through the gate · vs before: against the week before (for this week, the same days of it; — when older than 30 days)
                Kept away: of the pauses that ended, the share after which the app was neither opened nor tried again within 10 minutes
                \(UsageStatistics.delayedMeaning.term): \(UsageStatistics.delayedMeaning.meaning)
                Passes: the week's emergency pass through a scheduled block
                """))
    }
}
