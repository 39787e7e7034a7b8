import ArgumentParser
import Foundation
import GroveBuildInfo
import GroveCore
import GroveStore

/// The `grove` command: a dashboard with no arguments, and one subcommand per room.
public struct GroveCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "grove",
        abstract: "Grove: focus sessions that grow a forest, timers, mindful pauses and intentions.",
        discussion: """
            With no subcommand, prints today's dashboard: the current intention, the running focus \
            session, today's trees and focus time, and the current streak.

            Data lives in $GROVE_HOME/grove.sqlite, else $XDG_DATA_HOME/grove/grove.sqlite, \
            else ~/.local/share/grove/grove.sqlite (--database overrides). Every command that reports \
            takes --json. Exit status: 0 ok, 64 bad usage or input, 1 other failures.

            Examples:
              grove focus --length 50m        a live session that grows a tree
              grove stats                     streaks, a year heatmap, this week
              grove intention set "Ship it" --scope week
              grove pause youtube -- firefox https://youtube.com
              grove now                       one line for your prompt or status bar
              grove service install           the web app at http://127.0.0.1:4768/, started with your session
              grove --generate-completion-script bash > /etc/bash_completion.d/grove
            """,
        version: Build.versionLine,
        subcommands: [
            FocusCommand.self, ForestCommand.self, StatsCommand.self, ReviewCommand.self, NowCommand.self, TimerCommand.self,
            PauseCommand.self,
            AppsCommand.self, ContentCommand.self, IntentionCommand.self, ThemeCommand.self, RemindCommand.self,
            ExportCommand.self, ImportCommand.self, SetupCommand.self, AssistantCommand.self, MCPCommand.self, ServeCommand.self,
            ServiceCommand.self,
            SyncCommand.self,
            SyncServerCommand.self,
        ])

    @OptionGroup public var options: GlobalOptions

    public init() {}

    public func run() throws { try Self.run(options.plain) }

    /// The dashboard, for whichever parse made the command.
    static func run(_ options: PlainOptions) throws {
        let db = try options.open()
        // The first `grove` at a terminal asks the setup's questions before the first dashboard.
        if !options.json, try FirstRunPrompt.shouldAsk(db) { try FirstRunPrompt(db: db).run() }
        let dashboard = try Dashboard.load(from: db)
        if options.json {
            print(String(decoding: try GroveExport.makeEncoder().encode(dashboard), as: UTF8.self))
        } else {
            print(dashboard.text)
            // Output to a terminal but no one to answer (input from a pipe): one line pointing at the setup.
            if TerminalTraits.current().isTTY, try db.setup.isNeeded() {
                print(
                    Style(.current()).dim(
                        "New here? `grove setup` chooses your focus length, the sites to pause before and a reminder (or `grove setup --skip`)."
                    ))
            }
        }
    }
}
