import Foundation

/// One mindful pause before opening an app (seed 003).
///
/// It starts when the gateway appears (`completionStatus == nil`) and ends once: completed (the
/// countdown reached 0:00 and the person then chose), exited (the person left early), force_quit
/// (the process showing it was killed), or timeout (nobody came back: closed by recovery once its
/// duration plus the grace period has passed). A person who comes back to a page left open after
/// recovery still gets what they chose: their action replaces the `timeout`.
public struct GatewaySession: Identifiable, Hashable, Sendable, Codable {
    public enum CompletionType: String, Codable, CaseIterable, Sendable {
        case completed, exited
        case forceQuit = "force_quit"
        case timeout
    }

    public enum ActionType: String, Codable, CaseIterable, Sendable {
        case proceedToApp = "proceed_to_app"
        case exitToHome = "exit_to_home"
        /// "Plant a tree instead": the pause turns into a focus session.
        case deepenPause = "deepen_pause"
    }

    /// Seconds a session may run past its duration (seed 003).
    public static let gracePeriod = 5
    public static let durationRange = 15...45

    public var id: UUID
    public var appId: String
    public var contentId: String
    public var startTimestamp: Date
    /// The configured pause length, 15…45 s.
    public var durationSetting: Int
    /// Nil while the pause is on screen.
    public var completionStatus: CompletionType?
    /// Seconds actually spent in the mindful state (≤ durationSetting + 5).
    public var timeSpent: Int
    /// What the user did; nil for timeout and force_quit (nobody chose).
    public var actionOutcome: ActionType?
    /// Where the pause ran, e.g. "linux-cli", "web".
    public var platform: String
    /// Zone and local day in which the pause started: usage statistics are per local day.
    public var timeZoneIdentifier: String
    public var localDay: LocalDay
    /// When the session ended.
    public var endTimestamp: Date?
    /// True when this pause let a visit through a scheduled block with the week's emergency pass.
    public var emergencyPass: Bool?
    /// True when this pause was opened by letting a growing tree wither (the gate's own integrity).
    public var witheredTree: Bool?
    /// After Proceed: seconds with one of the app's pages open in a tab, as the browser extension
    /// measured them (nil: nothing measured, e.g. the CLI or the web gate without the extension).
    public var visitSeconds: Int?
    /// After Proceed: visits the grace window let through without another pause (the extension counts them).
    public var graceVisits: Int?

    /// The longest visit a report may claim: a day.
    public static let maxVisitSeconds = 86_400
    /// How far a report may run ahead of this device's clock (the extension's clock is the browser's).
    public static let visitClockSlack = 60
    /// The most visits one grace window may let through.
    public static let maxGraceVisits = 10_000

    public init(
        id: UUID, appId: String, contentId: String, startTimestamp: Date, durationSetting: Int,
        completionStatus: CompletionType? = nil, timeSpent: Int = 0, actionOutcome: ActionType? = nil,
        platform: String, calendar: ZonedCalendar, endTimestamp: Date? = nil
    ) {
        self.id = id
        self.appId = appId
        self.contentId = contentId
        self.startTimestamp = startTimestamp
        self.durationSetting = durationSetting
        self.completionStatus = completionStatus
        self.timeSpent = timeSpent
        self.actionOutcome = actionOutcome
        self.platform = platform
        self.timeZoneIdentifier = calendar.timeZone.identifier
        self.localDay = calendar.localDay(of: startTimestamp)
        self.endTimestamp = endTimestamp
    }

    public var isOpen: Bool { completionStatus == nil }

    /// Finished without opening the app or site: what `UsageStatistics.notOpenedSessions` counts.
    public var keptAway: Bool { completionStatus != nil && actionOutcome != .proceedToApp }

    /// Whether the person left this pause with "Exit to Focus", during the countdown or after it: what
    /// `UsageStatistics.exitedSessions` counts (seed 003).
    public var isExitToFocus: Bool { actionOutcome == .exitToHome || (completionStatus == .exited && actionOutcome == nil) }

    /// The instant after which an open session counts as abandoned.
    public var timeoutAt: Date { startTimestamp.addingTimeInterval(TimeInterval(durationSetting + Self.gracePeriod)) }

    /// Checks the seed's rules; `appExists` / `contentExists` answer for the references.
    public func validate(appExists: (String) -> Bool, contentExists: (String) -> Bool) throws(PauseValidationError) {
        guard Self.durationRange.contains(durationSetting) else { throw .durationSetting(durationSetting) }
        guard timeSpent >= 0 else { throw .negativeTimeSpent }
        guard timeSpent <= durationSetting + Self.gracePeriod else {
            throw .timeSpentTooLong(timeSpent: timeSpent, limit: durationSetting + Self.gracePeriod)
        }
        guard appExists(appId) else { throw .unknownApp(appId) }
        guard contentExists(contentId) else { throw .unknownContent(contentId) }
        try checkOutcome()
        try checkConsistency()
    }

    /// The rules between fields that the store also enforces: a known zone, the local day of the start
    /// in that zone (a contradicting day would file the pause under the wrong day forever), and an end
    /// exactly when the pause has ended, not before its start.
    public func checkConsistency() throws(PauseValidationError) {
        guard let calendar = ZonedCalendar(identifier: timeZoneIdentifier) else {
            throw .inconsistentRecord(field: "timeZoneIdentifier", rule: "Unknown time zone \"\(timeZoneIdentifier)\"")
        }
        let day = calendar.localDay(of: startTimestamp)
        guard day == localDay else {
            throw .inconsistentRecord(
                field: "localDay", rule: "localDay \(localDay) is not the day the pause started in \(timeZoneIdentifier) (\(day))")
        }
        guard (completionStatus == nil) == (endTimestamp == nil) else {
            throw .inconsistentRecord(field: "endTimestamp", rule: "A pause has an endTimestamp exactly when it has a completionStatus")
        }
        if let endTimestamp, endTimestamp < startTimestamp {
            throw .inconsistentRecord(field: "endTimestamp", rule: "A pause cannot end before it starts")
        }
        if (visitSeconds != nil || graceVisits != nil) && actionOutcome != .proceedToApp {
            throw .inconsistentRecord(field: "visitSeconds", rule: "Only a pause that ended with Proceed has a visit measured after it")
        }
        if let seconds = visitSeconds, !(0...Self.maxVisitSeconds).contains(seconds) {
            throw .inconsistentRecord(field: "visitSeconds", rule: "visitSeconds must be 0-\(Self.maxVisitSeconds)")
        }
        if let visits = graceVisits, !(0...Self.maxGraceVisits).contains(visits) {
            throw .inconsistentRecord(field: "graceVisits", rule: "graceVisits must be 0-\(Self.maxGraceVisits)")
        }
        guard !platform.containsNUL, platform.storedLength <= 100 else {
            throw .inconsistentRecord(field: "platform", rule: "Platform must be at most 100 characters")
        }
    }

    private func checkOutcome() throws(PauseValidationError) {
        switch (completionStatus, actionOutcome) {
        case (nil, nil): return
        case (nil, .some): throw .outcomeMismatch("An open pause cannot have an outcome yet")
        case (.completed?, nil): throw .outcomeMismatch("A completed pause needs an outcome: proceed_to_app, exit_to_home or deepen_pause")
        case (.exited?, .proceedToApp?): throw .outcomeMismatch("An exited pause cannot proceed to the app")
        case (.exited?, nil): throw .outcomeMismatch("An exited pause needs an outcome: exit_to_home or deepen_pause")
        case (.timeout?, .some), (.forceQuit?, .some): throw .outcomeMismatch("A timed-out or force-quit pause has no outcome")
        default: return
        }
    }

    /// Ends an open pause at `now` with `status` and `outcome`; time spent is measured from the
    /// start and capped at the duration plus the grace period. A pause recovered as `timeout` can
    /// still be finished: recovery guessed that nobody was there, and the person's choice is the truth.
    public mutating func finish(_ status: CompletionType, outcome: ActionType?, at now: Date) throws(PauseValidationError) {
        guard isOpen || completionStatus == .timeout else { throw .sessionAlreadyFinished }
        let elapsed = max(0, Int(now.timeIntervalSince(startTimestamp).rounded(.down)))
        if status == .completed && elapsed + 1 < durationSetting {
            throw .outcomeMismatch("A pause can only complete once its \(durationSetting) s countdown has run (\(elapsed) s so far)")
        }
        var ended = self
        ended.completionStatus = status
        ended.actionOutcome = outcome
        ended.timeSpent = min(elapsed, status == .completed ? durationSetting : durationSetting + Self.gracePeriod)
        ended.endTimestamp = max(now, startTimestamp)
        try ended.checkOutcome()
        self = ended
    }

    /// The extension's report of the visit after Proceed: the seconds on the app's pages so far and the
    /// visits its grace window let through. A report is a running total, and reports may arrive out of
    /// order (a retry, two browsers): each figure only grows. Refused for a pause that did not end
    /// with Proceed, a negative figure, or more seconds than have passed since Proceed.
    public mutating func recordVisit(seconds: Int, graceVisits visits: Int, at now: Date) throws(PauseValidationError) {
        guard actionOutcome == .proceedToApp, let end = endTimestamp else { throw .notProceeded }
        guard (0...Self.maxVisitSeconds).contains(seconds) else {
            throw .invalidVisit(field: "seconds", rule: "Seconds on the site must be 0-\(Self.maxVisitSeconds) (got \(seconds))")
        }
        let since = Int(max(0, now.timeIntervalSince(end)).rounded(.down))
        guard seconds <= since + Self.visitClockSlack else {
            throw .invalidVisit(field: "seconds", rule: "Seconds on the site cannot exceed the \(since) s since Proceed (got \(seconds))")
        }
        guard (0...Self.maxGraceVisits).contains(visits) else {
            throw .invalidVisit(field: "graceVisits", rule: "Grace visits must be 0-\(Self.maxGraceVisits) (got \(visits))")
        }
        visitSeconds = max(visitSeconds ?? 0, min(seconds, since))
        graceVisits = max(graceVisits ?? 0, visits)
    }

    /// Crash recovery: an open session whose duration plus grace has passed by `now` ends as
    /// `timeout` at that instant. Returns whether it changed.
    @discardableResult
    public mutating func recoverIfAbandoned(at now: Date) -> Bool {
        guard isOpen, now > timeoutAt else { return false }
        completionStatus = .timeout
        actionOutcome = nil
        timeSpent = durationSetting
        endTimestamp = timeoutAt
        return true
    }
}
