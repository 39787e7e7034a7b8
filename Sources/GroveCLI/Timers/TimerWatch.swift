import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// `grove timer watch ID`: the detached waiter `grove timer start`, `resume` and the live countdown
/// leave behind, so that a timer rings at its instant with no server and no terminal open. It ends
/// when the run is paused (resuming starts another), stopped, or announced by anyone.
struct TimerWatch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch", abstract: "Ring when a timer's run falls due (started for you by `timer start` and `resume`).",
        shouldDisplay: false)
    @OptionGroup var options: GlobalOptions
    @Argument(help: "The timer's id.", completion: Completions.timers) var timer: String

    func run() throws {
        guard let id = UUID(uuidString: timer) else { throw ValidationError("timer must be a timer's id (a UUID)") }
        CLIEnvironment.current.detachSelf()
        let db = try options.open()
        let io = CLIEnvironment.current.io
        try DetachedWaiter.wait(on: db, sleep: io.sleep) {
            guard let run = try db.timers.run(timerId: id) else { return .done }
            switch run.state {
            case .paused: return .done
            case .finished:
                guard try db.timers.claimNotice(timerId: id), let t = try db.timers.find(id: id) else { return .done }
                _ = io.notify("\(t.name) is done", "\(t.todoItems.filter(\.isCompleted).count)/\(t.todoItems.count) to-dos done")
                return .done
            case .running:
                return .wait(run.remaining)
            }
        }
    }
}

extension TimerRunStatus {
    /// Leaves a waiter to ring this run at its due instant (`grove timer watch`), when it runs.
    func armWaiter(_ db: AppDatabase) {
        if state == .running { DetachedWaiter.arm("timer", id: timerId, db: db) }
    }
}
