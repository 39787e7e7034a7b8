import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// `grove pause analytics [on|off]`: seed 003's privacy preference after setup, as Settings offers it.
struct PauseAnalytics: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analytics", abstract: "Show or change the stored analytics opt-in (Grove sends no analytics anywhere).")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "on or off (leave out to show).") var choice: String?

    func run() throws {
        let db = try options.open()
        let preferences: PausePreferences
        switch choice?.lowercased() {
        case nil: preferences = try db.pause.preferences()
        case "on", "true", "yes": preferences = try db.pause.changePreferences { $0.analyticsOptIn = true }
        case "off", "false", "no": preferences = try db.pause.changePreferences { $0.analyticsOptIn = false }
        case let other?: throw InvalidField("analytics", "analytics must be on or off (got \(other.quotedForMessage))")
        }
        if options.json { return try Output.json(preferences) }
        print(
            "Analytics opt-in: \(preferences.analyticsOptIn ? "on" : "off") (a stored preference only: Grove sends no analytics anywhere).")
    }
}
