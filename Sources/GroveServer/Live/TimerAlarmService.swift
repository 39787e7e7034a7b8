import Foundation
import GroveCore
import GroveStore
import Logging
import ServiceLifecycle

/// Announces named timers that reach their length while the server runs: a desktop notification
/// where `notify-send` exists, and an event that open pages turn into a browser notification; and,
/// where it can ring, focus sessions that complete.
///
/// Runs live in the store, so a timer started from the CLI or a page that has since closed is
/// announced too; each announcement is claimed in the store first (`timers.claimNotice`), so a
/// terminal counting the same timer down and the server never both announce it. It sleeps until the
/// next run falls due or the data changes (a run started elsewhere), `maxSleep` at most.
public final class TimerAlarmService<C: Clock>: Service, @unchecked Sendable where C.Duration == Duration {
    private let database: AppDatabase
    private let clock: C
    private let maxSleep: Duration
    private let changes: WakeSignal?
    private let onDone: @Sendable (TimerRunStatus) -> Void
    private let onFocusDone: (@Sendable (FocusSession) -> Void)?
    private let onBreakOver: (@Sendable (FocusBreak) -> Void)?
    private let rings: (@Sendable (AppDatabase) throws -> Bool)?
    private let logger = Logger(label: "grove.timers")

    /// `onFocusDone`, when given (the server can ring: `notify-send` exists), announces focus sessions
    /// that complete too, claimed like the timers' (`focus.claimNotice`); without it a page claims them.
    /// `onBreakOver` likewise says when the break after a tree has run its course (`focus.claimBreakOverNotice`).
    /// `rings`, when given, says at each look whether the server can ring now (a browser subscribed to
    /// Web Push since): trees and breaks are claimed only then.
    /// `changes`, when given, wakes it for a run started or changed anywhere: then `maxSleep` only bounds
    /// a sleep against a clock that jumped. Without it, it looks every `maxSleep`.
    public init(
        database: AppDatabase, clock: C, maxSleep: Duration = .seconds(1), changes: WakeSignal? = nil,
        onDone: @escaping @Sendable (TimerRunStatus) -> Void, onFocusDone: (@Sendable (FocusSession) -> Void)? = nil,
        onBreakOver: (@Sendable (FocusBreak) -> Void)? = nil, rings: (@Sendable (AppDatabase) throws -> Bool)? = nil
    ) {
        self.rings = rings
        self.database = database
        self.clock = clock
        self.maxSleep = maxSleep
        self.changes = changes
        self.onDone = onDone
        self.onFocusDone = onFocusDone
        self.onBreakOver = onBreakOver
    }

    public func run() async throws {
        try? await cancelWhenGracefulShutdown { [self] in try await loop() }
    }

    private func loop() async throws {
        while !Task.isCancelled {
            do {
                let wait = try await tick()
                if let changes { try await changes.wait(upTo: wait, on: clock) } else { try await clock.sleep(for: wait) }
            } catch is CancellationError {
                return
            } catch {
                logger.warning("Timer check failed", metadata: ["error": "\(error)"])
                try await clock.sleep(for: maxSleep)
            }
        }
    }

    /// Announces what fell due (each once) and returns how long to sleep.
    func tick() async throws -> Duration {
        // One hop to the store's threads for every read and claim; the announcements follow outside it.
        let (hasFocus, hasBreak, rings) = (onFocusDone != nil, onBreakOver != nil, rings)
        let found = try await database.run { db -> Found in
            let ringing = try rings?(db) ?? true
            let (wantsFocus, wantsBreak) = (hasFocus && ringing, hasBreak && ringing)
            let (due, next) = try db.timers.notices()
            var found = Found(next: next)
            found.runs = try due.filter { try db.timers.claimNotice(timerId: $0.timerId) }
            if wantsFocus {
                let (session, due) = try db.focus.notices()
                if let session, try db.focus.claimNotice(sessionId: session.id) { found.session = session }
                found.focusNext = due
            }
            if wantsBreak {
                let (over, ends) = try db.focus.breakNotice()
                if let over, try db.focus.claimBreakOverNotice(sessionId: over.sessionID) { found.breakOver = over }
                found.focusNext = [found.focusNext, ends].compactMap { $0 }.min()
            }
            return found
        }
        for run in found.runs {
            logger.info("Timer done", metadata: ["timer": "\(run.timerId)"])
            onDone(run)
        }
        if let session = found.session {
            logger.info("Tree planted", metadata: ["session": "\(session.id)"])
            onFocusDone?(session)
        }
        if let over = found.breakOver {
            logger.info("Break over", metadata: ["session": "\(over.sessionID)"])
            onBreakOver?(over)
        }
        let next = found.next, focusNext = found.focusNext
        let now = database.environment.now()
        guard let next = [next, focusNext].compactMap({ $0 }).min() else { return maxSleep }
        return min(maxSleep, .milliseconds(Int64(max(0, min(next.timeIntervalSince(now), 86_400)) * 1000)))
    }

    /// What one tick found and claimed.
    private struct Found: Sendable {
        var next: Date?
        var runs: [TimerRunStatus] = []
        var session: FocusSession?
        var breakOver: FocusBreak?
        var focusNext: Date?
    }
}
