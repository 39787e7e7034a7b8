import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// `grove pause <app> [-- command …]` and `grove pause stats`.
struct PauseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pause", abstract: "Take a mindful pause before opening an app or site.",
        discussion: "  grove pause instagram -- xdg-open https://www.instagram.com/\n  grove pause stats",
        subcommands: [PauseGate.self, PauseStats.self, PauseWeeks.self, PauseAnalytics.self],
        defaultSubcommand: PauseGate.self)
}
