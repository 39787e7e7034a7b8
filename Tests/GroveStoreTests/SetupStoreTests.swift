import Foundation
import GroveCore
import Testing

@testable import GroveStore

@Suite("First-run setup")
struct SetupStoreTests {
    @Test func theChoicesApplyTogetherAndTheTrialStartsOnce() throws {
        let (db, clock) = try makeStore(at: "2025-05-01T09:00:00Z")
        #expect(try db.setup.isNeeded())
        let started = clock.now
        try db.setup.complete(
            FirstRunSetup(
                focusMinutes: 50, shortBreakMinutes: 10, gatedApps: ["youtube", "reddit"], dailyReminder: "07:30",
                sampleTimers: true))
        #expect(try !db.setup.isNeeded())
        #expect(try db.focus.preferences().focusDuration == 3000 && db.focus.preferences().shortBreakDuration == 600)
        #expect(try db.pause.apps().filter(\.isEnabled).map(\.id).sorted() == ["reddit", "youtube"])
        let reminders = try db.intentions.preferences().notificationSettings
        #expect(reminders.dailyEnabled && reminders.dailyTime == TimeOfDay(hour: 7, minute: 30))
        #expect(try db.timers.all().count == NamedTimer.sampleData(createdAt: started).count)
        let pause = try db.pause.preferences()
        #expect(pause.onboardingCompleted && pause.trialStartDate == started && pause.analyticsOptIn == false)
        // Run again later: the trial keeps its first day; "" switches the reminder off; the samples are not doubled.
        clock.advance(by: 86_400)
        try db.setup.complete(FirstRunSetup(gatedApps: [], dailyReminder: "", sampleTimers: true, analyticsOptIn: true))
        #expect(try db.pause.preferences().trialStartDate == started && db.pause.preferences().analyticsOptIn)
        #expect(try db.pause.apps().filter(\.isEnabled).isEmpty && !db.intentions.preferences().notificationSettings.dailyEnabled)
        #expect(try db.timers.all().count == NamedTimer.sampleData(createdAt: started).count)
    }

    @Test func oneBadChoiceRefusesTheWholeSetupAndSkippingChangesNothing() throws {
        let (db, _) = try makeStore()
        let before = try snapshot(db)
        #expect(throws: PauseValidationError.unknownApp("nope")) {
            try db.setup.complete(FirstRunSetup(focusMinutes: 50, gatedApps: ["youtube", "nope"]))
        }
        #expect(throws: (any Error).self) { try db.setup.complete(FirstRunSetup(focusMinutes: 0, gatedApps: ["youtube"])) }
        #expect(throws: InvalidField.self) { try db.setup.complete(FirstRunSetup(focusMinutes: 50, dailyReminder: "25:00")) }
        #expect(throws: PauseValidationError.tooManyEnabledApps(11)) {
            try db.setup.complete(FirstRunSetup(gatedApps: Array(repeating: "x", count: 11)))
        }
        #expect(try snapshot(db) == before && db.setup.isNeeded())
        let focus = try db.focus.preferences()
        try db.setup.complete(FirstRunSetup(focusMinutes: 90, gatedApps: ["youtube"], sampleTimers: true), skip: true)
        #expect(
            try !db.setup.isNeeded() && db.focus.preferences() == focus && db.pause.apps().filter(\.isEnabled).isEmpty
                && db.timers.all().isEmpty)
    }
}
