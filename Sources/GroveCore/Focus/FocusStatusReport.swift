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

    public init(_ session: FocusSession?, now: Date) {
        self.session = session
        guard let session else { return }
        remaining = session.remaining(at: now)
        focusTime = session.focusTime(at: now)
        progress = session.progress(at: now)
        treeStage = session.treeStage(at: now)
        dueAt = session.dueAt
    }
}
