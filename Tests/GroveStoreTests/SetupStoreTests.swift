import Foundation
import GroveCore
import Testing

@testable import GroveStore

@Suite("First-run setup")
struct SetupStoreTests {
    @Test func theChoicesApplyTogetherAndTheTrialStartsOnce() throws {
        let (db, clock) = try makeStore(at: "2025-05-01T09:00:00Z")
        #expect(try db.needsSetup())
        let started = clock.now
        try db.completeSetup(
            FirstRunSetup(
                focusMinutes: 50, shortBreakMinutes: 10, gatedApps: ["youtube", "reddit"], dailyReminder: "07:30",
                sampleTimers: true))
        #expect(try !db.needsSetup())
        #expect(try db.focusPreferences().focusDuration == 3000 && db.focusPreferences().shortBreakDuration == 600)
        #expect(try db.apps().filter(\.isEnabled).map(\.id).sorted() == ["reddit", "youtube"])
        let reminders = try db.userPreferences().notificationSettings
        #expect(reminders.dailyEnabled && reminders.dailyTime == TimeOfDay(hour: 7, minute: 30))
        #expect(try db.timers().count == NamedTimer.sampleData(createdAt: started).count)
        let pause = try db.pausePreferences()
        #expect(pause.onboardingCompleted && pause.trialStartDate == started && pause.analyticsOptIn == false)
        // Run again later: the trial keeps its first day; "" switches the reminder off; the samples are not doubled.
        clock.advance(by: 86_400)
        try db.completeSetup(FirstRunSetup(gatedApps: [], dailyReminder: "", sampleTimers: true, analyticsOptIn: true))
        #expect(try db.pausePreferences().trialStartDate == started && db.pausePreferences().analyticsOptIn)
        #expect(try db.apps().filter(\.isEnabled).isEmpty && !db.userPreferences().notificationSettings.dailyEnabled)
        #expect(try db.timers().count == NamedTimer.sampleData(createdAt: started).count)
    }

    @Test func oneBadChoiceRefusesTheWholeSetupAndSkippingChangesNothing() throws {
        let (db, _) = try makeStore()
        let before = try snapshot(db)
        #expect(throws: PauseValidationError.unknownApp("nope")) {
            try db.completeSetup(FirstRunSetup(focusMinutes: 50, gatedApps: ["youtube", "nope"]))
        }
        #expect(throws: (any Error).self) { try db.completeSetup(FirstRunSetup(focusMinutes: 0, gatedApps: ["youtube"])) }
        #expect(throws: InvalidField.self) { try db.completeSetup(FirstRunSetup(focusMinutes: 50, dailyReminder: "25:00")) }
        #expect(throws: PauseValidationError.tooManyEnabledApps(11)) {
            try db.completeSetup(FirstRunSetup(gatedApps: Array(repeating: "x", count: 11)))
        }
        #expect(try snapshot(db) == before && db.needsSetup())
        let focus = try db.focusPreferences()
        try db.completeSetup(FirstRunSetup(focusMinutes: 90, gatedApps: ["youtube"], sampleTimers: true), skip: true)
        #expect(try !db.needsSetup() && db.focusPreferences() == focus && db.apps().filter(\.isEnabled).isEmpty && db.timers().isEmpty)
    }
}
