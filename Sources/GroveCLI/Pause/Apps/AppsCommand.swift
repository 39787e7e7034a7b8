import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// `grove apps …`: which apps and sites Grove gates.
struct AppsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apps", abstract: "The apps and sites Grove pauses in front of.",
        discussion: """
              grove apps
              grove apps add hn --name "Hacker News" --url https://news.ycombinator.com/ --enable
              grove apps add steam --name Steam --exec steam --enable
              grove apps launcher youtube --exec "firefox https://www.youtube.com/"
              grove apps enable hn
              grove apps paths youtube /shorts     (only YouTube's Shorts; `grove apps paths youtube` for all of it)
              grove apps block youtube "mon-fri 09:00-12:00" --strict
              grove apps duration 30s
            """,
        subcommands: [
            AppsList.self, AppsAdd.self, AppsEnable.self, AppsDisable.self, AppsRemove.self, AppsDuration.self, AppsAdaptive.self,
            AppsLauncher.self, AppsPaths.self, AppsBlock.self, AppsAllow.self,
        ],
        defaultSubcommand: AppsList.self)
}
