import Foundation

/// A session's live status at an instant: what `grove focus status --json` and
/// `GET /api/v1/focus/current` answer.
public struct FocusStatusReport: Codable, Sendable, Equatable {
    public var session: FocusSession?
    public var remaining: TimeInterval?
    public var focusTime: TimeInterval?
    public var progress: Double?
    public var treeStage: TreeStage?
    public var dueAt: Date?
    /// The break running after the last tree, when no session is (skip it, or start the next session).
    public var `break`: FocusBreakReport?

    /// An open-ended session has no `remaining` (nil): its faces show `focusTime`, counting up, and
    /// `dueAt` is the safety stop at which a forgotten one ends by itself.
    public init(_ session: FocusSession?, now: Date, break running: FocusBreak? = nil) {
        self.session = session
        if session?.state.isOpen != true, let running, running.isRunning(at: now) { self.break = FocusBreakReport(running, now: now) }
        guard let session else { return }
        remaining = session.remaining(at: now)
        focusTime = session.focusTime(at: now)
        progress = session.progress(at: now)
        treeStage = session.treeStage(at: now)
        dueAt = session.dueAt
    }
}
