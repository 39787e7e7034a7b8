import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// `grove focus`: an interactive session, or its subcommands for scripts.
struct FocusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "focus",
        abstract: "Grow a tree: a Pomodoro focus session.",
        discussion: """
            With no subcommand, runs a live session in the terminal: a countdown, a growing tree and \
            a progress bar. Keys: p pause/resume, a abandon, d detach (the session goes on without \
            the window; `grove focus status` shows it). When it completes Grove rings the bell, sends a \
            desktop notification where notify-send exists, and the break the Pomodoro cycle calls for \
            begins ([s] skips it, [n] starts the next session). With --open the session counts up \
            until you stop it ([s], or `grove focus stop`) and its tree grows by the time spent.

            Examples:
              grove focus                  # 25 minutes (or your configured length)
              grove focus --length 50m
              grove focus --open               # count up, like a stopwatch
              grove focus start --length 90s && grove focus status
              grove focus log --start 09:00 --end 09:25
              grove focus --tag essay          # say what it is for; `grove stats --tag essay` later
              grove focus retag last essay reading
            """,
        subcommands: [
            FocusRun.self, FocusStart.self, FocusStop.self, FocusPause.self, FocusResume.self, FocusAbandon.self, FocusBreakCommand.self,
            FocusStatus.self, FocusLog.self, FocusRemove.self,
            FocusRetag.self, FocusTagList.self, FocusConfig.self, FocusWatch.self,
        ],
        defaultSubcommand: FocusRun.self)
}
