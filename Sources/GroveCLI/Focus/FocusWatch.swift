import ArgumentParser
import Foundation
import GroveCore
import GroveStore
import GroveSystem

/// `grove focus watch ID`: the detached waiter `grove focus start`, `resume` and the live screen
/// leave behind. It sleeps until the session falls due (waking at least every 30 s to see a pause or
/// an abandon), then settles it and rings once, unless someone else already did; then it sleeps
/// through the tree's break and says "break over", unless the break was skipped or someone said it.
/// A pause ends it (resuming starts another); an abandon ends it silently (seed 002 cancels the
/// notification).
struct FocusWatch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch", abstract: "Ring when a session falls due (started for you by `focus start` and `resume`).",
        shouldDisplay: false)
    @OptionGroup var options: GlobalOptions
    @Argument(help: "The session's id.") var session: String

    func run() throws {
        guard let id = UUID(uuidString: session) else { throw ValidationError("session must be a session's id (a UUID)") }
        CLIEnvironment.current.detachSelf()
        let db = try options.open()
        let io = CLIEnvironment.current.io
        _ = try FocusWaiter(db: db, sleep: io.sleep, notify: io.notify, hold: .of(db)).run(sessionId: id)
    }
}

/// The waiter's loop, on injected sleep and notifications (tests drive it on a test clock).
struct FocusWaiter {
    let db: AppDatabase
    let sleep: @Sendable (TimeInterval) -> Void
    let notify: @Sendable (_ title: String, _ body: String) -> Bool
    /// The desktop's notifications, held while the session grows and given back before the ring.
    var hold: NotificationHold? = nil

    /// Waits for the session and rings if it completes and nobody rang yet, then waits out its break;
    /// whether it rang for the tree.
    func run(sessionId: UUID) throws -> Bool {
        var rang = false, completed = false
        // However the wait ends (a pause, an abandon, the store gone), the desktop gets its notifications back.
        defer { hold?.release() }
        try DetachedWaiter.wait(on: db, sleep: sleep) {
            if completed { return try waitOutBreak(after: sessionId) }
            _ = try db.focus.settle()
            guard let session = try db.focus.session(id: sessionId) else { return .done }
            switch session.state {
            case .paused, .abandoned:
                return .done
            case .completed:
                completed = true
                if try db.focus.claimNotice(sessionId: sessionId) {
                    hold?.release()  // before the ring, or a held desktop would swallow it
                    rang = true
                    _ = notify(CompletionNotice.title, CompletionNotice.body)
                }
                return try waitOutBreak(after: sessionId)
            case .active:
                hold?.engage()
                return .wait(session.untilEnd(at: try db.focus.now(for: session)))
            }
        }
        return rang
    }

    /// The break after the tree: waited out, then announced once; skipped or replaced, nothing.
    private func waitOutBreak(after sessionId: UUID) throws -> DetachedWaiter.Step {
        guard let (pause, now) = try db.focus.breakAfter(sessionId: sessionId), pause.endedEarlyAt == nil else { return .done }
        let left = pause.remaining(at: now)
        if left > 0 { return .wait(left) }
        if try db.focus.claimBreakOverNotice(sessionId: sessionId) { _ = notify(BreakNotice.title, BreakNotice.body) }
        return .done
    }
}

extension FocusSession {
    /// Leaves a waiter to ring this session at its due instant (`grove focus watch`), when it runs.
    func armWaiter(_ db: AppDatabase) {
        if state == .active { DetachedWaiter.arm("focus", id: id, db: db) }
    }
}
