import Foundation
import GRDB
import GroveCore

/// What a person chooses on first run (seeds 003 and 004's onboarding): every field optional, so a
/// face may ask for some and leave the rest as they are.
public struct FirstRunSetup: Codable, Sendable, Equatable {
    /// Focus length and breaks, minutes.
    public var focusMinutes: Int?
    public var shortBreakMinutes: Int?
    public var longBreakMinutes: Int?
    /// The apps or sites to gate: exactly these are switched on (at most 10).
    public var gatedApps: [String]?
    /// "08:00" for a daily intention reminder, "" for none.
    public var dailyReminder: String?
    /// Load seed 001's sample timers.
    public var sampleTimers: Bool?
    /// Off unless asked for.
    public var analyticsOptIn: Bool?

    public init(
        focusMinutes: Int? = nil, shortBreakMinutes: Int? = nil, longBreakMinutes: Int? = nil, gatedApps: [String]? = nil,
        dailyReminder: String? = nil, sampleTimers: Bool? = nil, analyticsOptIn: Bool? = nil
    ) {
        self.focusMinutes = focusMinutes
        self.shortBreakMinutes = shortBreakMinutes
        self.longBreakMinutes = longBreakMinutes
        self.gatedApps = gatedApps
        self.dailyReminder = dailyReminder
        self.sampleTimers = sampleTimers
        self.analyticsOptIn = analyticsOptIn
    }
}

extension SetupRoom {
    /// Whether the first-run setup has been done or skipped.
    public func isNeeded() throws -> Bool {
        !(try database.intentions.preferences().onboardingCompleted)
    }

    /// Applies a first-run setup (or, with `skip`, nothing but the mark) and marks onboarding
    /// completed in both rooms that have the flag; the trial starts now the first time only. Every
    /// choice is checked by its room's own rules, all of them before anything is saved.
    public func complete(_ setup: FirstRunSetup, skip: Bool = false) throws {
        let now = environment.now()
        var reminder: TimeOfDay?
        if !skip, let text = setup.dailyReminder, !text.isEmpty {
            guard let time = TimeOfDay(text) else {
                throw InvalidField("dailyReminder", "dailyReminder must be a time like 08:00 (got \(text.quotedForMessage))")
            }
            reminder = time
        }
        if !skip, let apps = setup.gatedApps {
            guard apps.count <= PausePreferences.maxEnabledApps else { throw PauseValidationError.tooManyEnabledApps(apps.count) }
            let known = Set(try database.pause.apps().map(\.id))
            if let unknown = apps.first(where: { !known.contains($0) }) { throw PauseValidationError.unknownApp(unknown) }
        }
        // One transaction: a choice that breaks its room's rule refuses the whole setup.
        try write { db in
            if !skip {
                if setup.focusMinutes != nil || setup.shortBreakMinutes != nil || setup.longBreakMinutes != nil {
                    var focus = try database.focusPreferences(db)
                    if let m = setup.focusMinutes { focus.focusDuration = TimeInterval(m) * 60 }
                    if let m = setup.shortBreakMinutes { focus.shortBreakDuration = TimeInterval(m) * 60 }
                    if let m = setup.longBreakMinutes { focus.longBreakDuration = TimeInterval(m) * 60 }
                    try focus.validate()
                    try FocusPreferencesRecord(focus).upsert(db)
                }
                if let apps = setup.gatedApps {
                    try db.cachedExecute("UPDATE social_app SET is_enabled = 0 WHERE is_enabled")
                    for id in apps { try db.cachedExecute("UPDATE social_app SET is_enabled = 1 WHERE id = ? AND retired IS NOT 1", [id]) }
                }
            }
            var pause = try database.pausePreferences(db)
            pause.onboardingCompleted = true
            if pause.trialStartDate == nil { pause.trialStartDate = now }
            if !skip, let optIn = setup.analyticsOptIn { pause.analyticsOptIn = optIn }
            try PausePreferencesRecord(pause).upsert(db)
            var user =
                try UserPreferencesRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM user_preferences LIMIT 1"))?.preferences
                ?? UserPreferences()
            user.onboardingCompleted = true
            if !skip, setup.dailyReminder != nil {
                user.notificationSettings.dailyEnabled = reminder != nil
                if let reminder { user.notificationSettings.dailyTime = reminder }
            }
            try UserPreferencesRecord(user).upsert(db)
        }
        if !skip, setup.sampleTimers == true { try database.timers.loadSamples() }
    }
}
