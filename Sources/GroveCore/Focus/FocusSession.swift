import Foundation

/// One Pomodoro focus session (seed 000, T009), as a value.
///
/// Timing is a pure function of the persisted instants and `now`: nothing ticks. A session whose focus
/// time reaches `plannedDuration` is completed at that exact instant, whoever evaluates it and however
/// late (`settled(at:)`). `duration` and `pausedDuration` hold the values as of the last transition;
/// use `focusTime(at:)` for the live figure.
public struct FocusSession: Identifiable, Hashable, Sendable, Codable {
    public var id: UUID
    /// When the session started (UTC instant).
    public var startTime: Date
    /// When it completed or was abandoned; nil while active or paused.
    public var endTime: Date?
    public var state: SessionState
    /// Focus time, excluding pauses, as of the last transition (final once terminal).
    public var duration: TimeInterval
    /// Total time spent paused, as of the last transition.
    public var pausedDuration: TimeInterval
    public var createdAt: Date
    /// The session's length: 25 minutes unless configured (1 s … 4 h).
    public var plannedDuration: TimeInterval
    /// When the current pause began; nil unless paused.
    public var pausedAt: Date?
    /// IANA zone the session was lived in (where it ended, once terminal).
    public var timeZoneIdentifier: String
    /// The local day on which the session ended, in `timeZoneIdentifier`; nil until terminal.
    public var endDay: LocalDay?
    /// Set when the session's elapsed time could not be measured with a monotonic clock across a
    /// restart, and the wall clock was used (clamped) instead.
    public var clockUncertain: Bool
    /// What the session was for, in stored form (`FocusTags.normalized`): sorted, each once.
    public var tags: [String]
    /// An open-ended session counts up until it is stopped (`stop(at:in:)`) instead of down to a
    /// planned length; its `plannedDuration` is the limit at which a forgotten one stops by itself.
    public var openEnded: Bool

    /// Default planned length: 25 minutes.
    public static let defaultPlannedDuration: TimeInterval = 25 * 60
    /// The least focus a tree costs: one minute. Forest asks ten; Grove's Pomodoros may be short, but
    /// a session ended after seconds (or planned for seconds) is not a tree in any face. An open-ended
    /// session stopped before it is given up (`stop(at:in:)`), and no new session is shorter.
    public static let shortestTree: TimeInterval = 60
    /// The lengths a new session may be given (started, configured or logged as completed): a minute
    /// (`shortestTree`) to 4 hours.
    public static let lengthRange: ClosedRange<TimeInterval> = shortestTree...(4 * 3600)
    /// The planned lengths a stored session may carry: history imported or synced from older versions
    /// of Grove may hold sessions from one second; nothing new is shorter than `lengthRange`.
    public static let plannedDurationRange: ClosedRange<TimeInterval> = 1...(4 * 3600)

    public init(
        id: UUID,
        startTime: Date,
        endTime: Date? = nil,
        state: SessionState = .active,
        duration: TimeInterval = 0,
        pausedDuration: TimeInterval = 0,
        createdAt: Date? = nil,
        plannedDuration: TimeInterval = FocusSession.defaultPlannedDuration,
        pausedAt: Date? = nil,
        timeZoneIdentifier: String,
        endDay: LocalDay? = nil,
        clockUncertain: Bool = false,
        tags: [String] = [],
        openEnded: Bool = false
    ) {
        self.id = id
        self.startTime = startTime
        self.endTime = endTime
        self.state = state
        self.duration = duration
        self.pausedDuration = pausedDuration
        self.createdAt = createdAt ?? startTime
        self.plannedDuration = plannedDuration
        self.pausedAt = pausedAt
        self.timeZoneIdentifier = timeZoneIdentifier
        self.endDay = endDay
        self.clockUncertain = clockUncertain
        self.tags = tags
        self.openEnded = openEnded
    }

    /// Starts a new active session at `now`. `shortest` is a tree's cost (`shortestTree`; only the
    /// end-to-end tests, which grow real trees in seconds, lower it).
    public static func start(
        id: UUID, at now: Date, plannedDuration: TimeInterval = defaultPlannedDuration, timeZone: TimeZone, tags: [String] = [],
        shortest: TimeInterval = shortestTree
    ) throws(FocusError) -> FocusSession {
        guard (min(shortest, shortestTree)...lengthRange.upperBound).contains(plannedDuration) else {
            throw .invalidPlannedDuration(plannedDuration)
        }
        return FocusSession(id: id, startTime: now, plannedDuration: plannedDuration, timeZoneIdentifier: timeZone.identifier, tags: tags)
    }

    /// Starts a new open-ended session at `now`: it counts up until stopped, and stops by itself at
    /// the longest session (4 hours) if forgotten, keeping its tree.
    public static func startOpen(id: UUID, at now: Date, timeZone: TimeZone, tags: [String] = []) -> FocusSession {
        FocusSession(
            id: id, startTime: now, plannedDuration: plannedDurationRange.upperBound, timeZoneIdentifier: timeZone.identifier, tags: tags,
            openEnded: true)
    }

    /// The focus time at which an open-ended session's tree is fully grown: a Pomodoro's worth. It
    /// keeps counting after; the forest sizes the tree by the time actually spent (`TreeLook`).
    public static let openEndedFullTree: TimeInterval = defaultPlannedDuration

    // MARK: Timing

    /// Time paused up to `now`, including a pause in progress.
    public func pausedTime(at now: Date) -> TimeInterval {
        guard state == .paused, let pausedAt else { return pausedDuration }
        return pausedDuration + max(0, now.timeIntervalSince(pausedAt))
    }

    /// Focus time (excluding pauses) at `now`, never more than the planned length.
    public func focusTime(at now: Date) -> TimeInterval {
        switch state {
        case .completed, .abandoned: return duration
        case .paused:
            guard let pausedAt else { return duration }
            return min(plannedDuration, max(0, pausedAt.timeIntervalSince(startTime) - pausedDuration))
        case .active:
            return min(plannedDuration, max(0, now.timeIntervalSince(startTime) - pausedDuration))
        }
    }

    /// Focus time still to go at `now`; nil for an open-ended session, which counts up: its limit
    /// (`plannedDuration`, 4 hours) is a safety stop for a forgotten session, never shown as time left.
    public func remaining(at now: Date) -> TimeInterval? { openEnded ? nil : untilEnd(at: now) }

    /// Focus time until the session ends by itself at `now`: its planned length, or an open-ended
    /// session's safety stop (what a waiter sleeps until; no face shows it for an open-ended one).
    public func untilEnd(at now: Date) -> TimeInterval { max(0, plannedDuration - focusTime(at: now)) }

    /// Where the session stands at `now`, as every face says it: `25:00 left`, or `12:34 so far` for
    /// an open-ended session.
    public func timeText(at now: Date) -> String {
        remaining(at: now).map { "\(ClockText.format($0)) left" } ?? "\(ClockText.format(focusTime(at: now))) so far"
    }

    /// Progress 0…1 at `now`: of the planned length, or for an open-ended session of a full tree's growth.
    public func progress(at now: Date) -> Double {
        state == .completed ? 1 : min(1, focusTime(at: now) / (openEnded ? Self.openEndedFullTree : plannedDuration))
    }

    /// The tree's growth stage at `now`.
    public func treeStage(at now: Date) -> TreeStage {
        state == .completed ? .fullTree : TreeStage(progress: progress(at: now))
    }

    /// The instant at which an active session reaches its planned length (nil unless active).
    public var dueAt: Date? {
        guard state == .active else { return nil }
        return startTime.addingTimeInterval(pausedDuration + plannedDuration)
    }

    /// Whether an active session has reached its planned length by `now`.
    public func isDue(at now: Date) -> Bool { dueAt.map { now >= $0 } ?? false }

    // MARK: Transitions

    /// The session as it stands at `now`: an active session whose focus time reached its length is
    /// completed at the exact instant it did, even when first evaluated hours later.
    ///
    /// It completes in the zone it was started in: nobody acted, so nothing says the person moved, and
    /// a process that happens to notice it from another zone must not file it under that zone's day.
    /// `fallback` serves only when the session's own zone is unknown to this machine.
    public func settled(at now: Date, fallback calendar: ZonedCalendar) -> FocusSession {
        guard let due = dueAt, now >= due else { return self }
        var session = self
        session.finish(as: .completed, at: due, in: ZonedCalendar(identifier: timeZoneIdentifier) ?? calendar)
        return session
    }

    /// Pauses an active session.
    public mutating func pause(at now: Date) throws(FocusError) {
        try check(.paused)
        duration = focusTime(at: now)
        pausedAt = max(now, startTime)
        state = .paused
    }

    /// Resumes a paused session, adding the pause to `pausedDuration`.
    public mutating func resume(at now: Date) throws(FocusError) {
        try check(.active)
        pausedDuration = pausedTime(at: now)
        pausedAt = nil
        state = .active
    }

    /// Completes an active session at `now` (ending it early keeps the focus time actually spent).
    public mutating func complete(at now: Date, in calendar: ZonedCalendar) throws(FocusError) {
        try check(.completed)
        finish(as: .completed, at: min(now, dueAt ?? now), in: calendar)
    }

    /// Stops an open-ended session at `now`, active or paused: it is completed with the focus time
    /// actually spent, and grows its tree. A paused one is resumed at `now` first (paused → completed
    /// is not a transition of the seed's; the pause stays out of its focus time). One stopped before a
    /// tree's cost (`shortestTree`) is abandoned instead: no tree, as in every face. A planned session
    /// is not stopped: it ends when its time is up, or is abandoned.
    public mutating func stop(at now: Date, in calendar: ZonedCalendar, shortest: TimeInterval = shortestTree) throws(FocusError) {
        guard openEnded else { throw .notOpenEnded }
        guard state.isOpen else { throw .illegalTransition(from: state, to: .completed) }
        guard focusTime(at: now) >= min(shortest, Self.shortestTree) else { return try abandon(at: now, in: calendar) }
        if state == .paused { try resume(at: now) }
        try complete(at: now, in: calendar)
    }

    /// Abandons an active or paused session at `now`: no tree.
    public mutating func abandon(at now: Date, in calendar: ZonedCalendar) throws(FocusError) {
        try check(.abandoned)
        finish(as: .abandoned, at: now, in: calendar)
    }

    private func check(_ target: SessionState) throws(FocusError) {
        guard state.canTransition(to: target) else { throw .illegalTransition(from: state, to: target) }
    }

    private mutating func finish(as final: SessionState, at end: Date, in calendar: ZonedCalendar) {
        if state == .paused {
            pausedDuration = pausedTime(at: end)
            pausedAt = nil
        }
        duration = state == .active ? min(plannedDuration, max(0, end.timeIntervalSince(startTime) - pausedDuration)) : duration
        state = final
        let endTime = max(end, startTime)
        self.endTime = endTime
        timeZoneIdentifier = calendar.timeZone.identifier
        endDay = calendar.localDay(of: endTime)
    }
}

extension FocusSession {
    private enum CodingKeys: String, CodingKey {
        case id, startTime, endTime, state, duration, pausedDuration, createdAt, plannedDuration, pausedAt, timeZoneIdentifier, endDay
        case clockUncertain, tags, openEnded
    }

    /// As the synthesized decoder, except that `tags` and `openEnded` may be missing (exports from
    /// before them).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try c.decode(UUID.self, forKey: .id), startTime: try c.decode(Date.self, forKey: .startTime),
            endTime: try c.decodeIfPresent(Date.self, forKey: .endTime), state: try c.decode(SessionState.self, forKey: .state),
            duration: try c.decode(TimeInterval.self, forKey: .duration),
            pausedDuration: try c.decode(TimeInterval.self, forKey: .pausedDuration),
            createdAt: try c.decode(Date.self, forKey: .createdAt),
            plannedDuration: try c.decode(TimeInterval.self, forKey: .plannedDuration),
            pausedAt: try c.decodeIfPresent(Date.self, forKey: .pausedAt),
            timeZoneIdentifier: try c.decode(String.self, forKey: .timeZoneIdentifier),
            endDay: try c.decodeIfPresent(LocalDay.self, forKey: .endDay), clockUncertain: try c.decode(Bool.self, forKey: .clockUncertain),
            tags: try c.decodeIfPresent([String].self, forKey: .tags) ?? [],
            openEnded: try c.decodeIfPresent(Bool.self, forKey: .openEnded) ?? false)
    }

    /// As the synthesized encoder; `tags` only when there are some and `openEnded` only when set, so
    /// that an untagged planned session reads as it always did.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(startTime, forKey: .startTime)
        try c.encodeIfPresent(endTime, forKey: .endTime)
        try c.encode(state, forKey: .state)
        try c.encode(duration, forKey: .duration)
        try c.encode(pausedDuration, forKey: .pausedDuration)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(plannedDuration, forKey: .plannedDuration)
        try c.encodeIfPresent(pausedAt, forKey: .pausedAt)
        try c.encode(timeZoneIdentifier, forKey: .timeZoneIdentifier)
        try c.encodeIfPresent(endDay, forKey: .endDay)
        try c.encode(clockUncertain, forKey: .clockUncertain)
        if !tags.isEmpty { try c.encode(tags, forKey: .tags) }
        if openEnded { try c.encode(openEnded, forKey: .openEnded) }
    }
}
