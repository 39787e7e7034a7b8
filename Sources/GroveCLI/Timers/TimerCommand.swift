import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// `grove timer …`: named timers with checklists.
struct TimerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timer", abstract: "Named timers with to-do checklists.",
        discussion: """
            Timers are named by their name (any case) or the start of their id.
              grove timer add Workout --duration 25m --color "#FF3B30" --todo "Warm up" --todo "20 push-ups"
              grove timer run workout          # live; q leaves it running (grove timer stop workout)
              grove timer start tea && grove now
              grove timer todo toggle workout 1
            """,
        subcommands: [
            TimerList.self, TimerAdd.self, TimerShow.self, TimerEdit.self, TimerRemove.self, TimerLive.self, TimerStart.self,
            TimerPause.self, TimerResume.self, TimerStop.self, TimerRuns.self, TimerSamples.self, TodoCommand.self, TimerWatch.self,
        ],
        defaultSubcommand: TimerList.self)
}
