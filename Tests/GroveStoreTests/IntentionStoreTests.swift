import Foundation
import GRDB
import GroveCore
import Testing

@testable import GroveStore

@Suite("Intentions, themes and preferences repositories")
struct IntentionStoreTests {
    @Test func bothRepositoryImplementationsAgree() throws {
        let (db, clock) = try makeStore(at: "2025-05-14T09:00:00Z")
        let sqlite: any IntentionRepository = SQLiteIntentionRepository(database: db)
        let memory: any IntentionRepository = InMemoryIntentionRepository(now: { clock.now }, calendar: try db.calendar())
        let items = [
            Intention(id: UUID(), text: "Ship the release", scope: .month, date: day("2025-05-01"), createdAt: clock.now),
            Intention(id: UUID(), text: "Walk every evening", scope: .week, date: day("2025-05-12"), createdAt: clock.now),
            Intention(id: UUID(), text: "Be patient with the café crowd", scope: .day, date: day("2025-05-14"), createdAt: clock.now),
            Intention(id: UUID(), text: "Rest", scope: .day, date: day("2025-04-30"), createdAt: clock.now),
        ]
        for repo in [sqlite, memory] {
            for i in items { try repo.create(i) }
            #expect(throws: InvalidField.self) { try repo.create(items[0]) }
            var bad = items[0]
            bad.id = UUID()
            bad.text = " "
            #expect(throws: IntentionValidationError.emptyText) { try repo.create(bad) }
        }
        for repo in [sqlite, memory] {
            #expect(try repo.getAll().map(\.text) == ["Be patient with the café crowd", "Walk every evening", "Ship the release", "Rest"])
            #expect(try repo.getCurrentDisplayIntention()?.text == "Be patient with the café crowd")
            #expect(try repo.getIntention(for: day("2025-05-16"), scope: .week)?.text == "Walk every evening")
            #expect(try repo.getIntention(for: day("2025-05-16"), scope: .day) == nil)
            #expect(try repo.search(query: "CAFÉ").map(\.text) == ["Be patient with the café crowd"])
            #expect(try repo.search(query: "cafe").count == 1, "diacritic-insensitive")
            #expect(try repo.search(query: "  ").isEmpty)
            #expect(try repo.search(query: "100%").isEmpty)
            #expect(try repo.getIntentions(from: day("2025-05-01"), to: day("2025-05-12")).count == 2)
            #expect(try repo.getIntentions(scope: .day).count == 2)
            #expect(try repo.getIntention(byId: items[1].id)?.text == "Walk every evening")
        }
        clock.advance(by: 60)
        var edited = items[2]
        edited.text = "Be kind"
        try sqlite.update(edited)
        try memory.update(edited)
        #expect(try sqlite.getIntention(byId: edited.id)?.updatedAt == clock.now)
        #expect(try sqlite.getIntention(byId: edited.id) == memory.getIntention(byId: edited.id))
        try sqlite.delete(edited)
        try memory.delete(edited)
        #expect(try sqlite.getCurrentDisplayIntention()?.text == "Walk every evening")
        #expect(try memory.getCurrentDisplayIntention()?.text == "Walk every evening")
        #expect(throws: NotFoundError.self) { try sqlite.delete(edited) }
    }

    @Test func settingAnIntentionReplacesTheOneForThatPeriod() throws {
        let (db, clock) = try makeStore(at: "2025-05-14T09:00:00Z")
        let first = try db.intentions.set("Read more", scope: .week)
        clock.advance(by: 10)
        let second = try db.intentions.set("Read every night", scope: .week, date: day("2025-05-17"))
        #expect(second.id == first.id)
        #expect(try db.intentions.all(scope: .week).count == 1)
        #expect(try db.intentions.current()?.text == "Read every night")
        try db.intentions.set("Finish chapter two", scope: .day)
        #expect(try db.intentions.current()?.text == "Finish chapter two")
        #expect(try db.intentions.current(on: day("2025-05-15"))?.text == "Read every night")
        #expect(throws: IntentionValidationError.emptyText) { try db.intentions.set("", scope: .day) }
        #expect(throws: IntentionValidationError.unknownTheme(UUID(uuidString: "00000000-0000-4000-8000-0000000000AA")!)) {
            try db.intentions.set("x", scope: .day, themeId: UUID(uuidString: "00000000-0000-4000-8000-0000000000AA")!)
        }
    }

    @Test func aNewTextDropsAStaleQuoteAndSaysWhoWroteIt() throws {
        let (db, _) = try makeStore(at: "2025-05-14T09:00:00Z")
        let first = try db.intentions.set(
            "Be patient", scope: .day, quote: "Patience is bitter, but its fruit is sweet.", aiGenerated: true)
        #expect(first.aiGenerated && first.quote != nil)
        #expect(try db.intentions.set("Be patient", scope: .day).quote == first.quote, "the same words keep their quote")
        let second = try db.intentions.set("Be kind", scope: .day)
        #expect(second.quote == nil, "a quote chosen for other words is stale")
        #expect(second.aiGenerated == false, "words typed by the person are theirs")
        #expect(try db.intentions.set("Be brave", scope: .day, quote: "Fortune favours the bold.").quote == "Fortune favours the bold.")
    }

    @Test func weekScopeFollowsTheConfiguredFirstWeekday() throws {
        let (db, _) = try makeStore(at: "2025-05-18T09:00:00Z")  // a Sunday
        let prefs = UserPreferencesRepository(database: db)
        try db.intentions.set("Monday-week intention", scope: .week, date: day("2025-05-12"))
        try prefs.setCalendar(timeZoneIdentifier: "UTC", firstWeekday: 1)
        #expect(try db.intentions.current()?.text == "Monday-week intention")
        try prefs.setCalendar(timeZoneIdentifier: "UTC", firstWeekday: 0)
        #expect(try db.intentions.current() == nil, "with Sunday weeks, the 18th starts a new week")
    }

    @Test func themeRepository() throws {
        let (db, clock) = try makeStore()
        let repo = ThemeRepository(database: db)
        #expect(try repo.getAll().prefix(5).map(\.name) == ["Serene", "Vibrant", "Minimal", "Sunset", "Ocean"])
        #expect(try repo.presetThemeExists(name: "ocean"))
        #expect(try !repo.presetThemeExists(name: "Desert"))
        let mine = IntentionTheme(id: UUID(), name: "Desert", backgroundColor: "#EDC9AF", textColor: "#3B2F2F", createdAt: clock.now)
        try repo.create(mine)
        let generated = try OfflineAssistant.theme(for: "night forest", id: UUID(), createdAt: clock.now)
        try repo.create(generated)
        #expect(try repo.getCustomThemes().map(\.name) == ["Desert"])
        #expect(try repo.getAIGeneratedThemes().map(\.id) == [generated.id])
        #expect(try repo.getAll().count == 7)
        #expect(throws: IntentionValidationError.presetThemeReadOnly) { try repo.delete(PresetThemes.ocean) }
        var ocean = PresetThemes.ocean
        ocean.name = "Sea"
        #expect(throws: IntentionValidationError.presetThemeReadOnly) { try repo.update(ocean) }
        var bad = mine
        bad.textColor = "brown"
        #expect(throws: IntentionValidationError.invalidColor(field: "textColor", value: "brown")) { try repo.update(bad) }
        // Deleting a theme keeps the intentions that used it.
        let intention = try db.intentions.set("Stay warm", scope: .day, themeId: mine.id)
        try repo.delete(mine)
        #expect(try db.intentions.find(id: intention.id)?.themeId == nil)
        #expect(try repo.getTheme(byId: mine.id) == nil)
    }

    @Test func preferencesSingleton() throws {
        let (db, _) = try makeStore(at: "2025-05-14T09:00:00Z")
        let repo = UserPreferencesRepository(database: db)
        let prefs = try repo.getOrCreatePreferences()
        #expect(prefs.id == UserPreferences.singletonID)
        #expect(throws: IntentionValidationError.preferencesAlreadyExist) { try repo.create(UserPreferences()) }
        try repo.markOnboardingCompleted()
        try repo.setDefaultTheme(PresetThemes.sunset.id)
        try repo.setDefaultFont("Georgia")
        #expect(throws: IntentionValidationError.unknownTheme(UUID(uuidString: "00000000-0000-4000-8000-0000000000AB")!)) {
            try repo.setDefaultTheme(UUID(uuidString: "00000000-0000-4000-8000-0000000000AB")!)
        }
        var n = NotificationSettings.default
        n.dailyEnabled = true
        n.dailyTime = TimeOfDay(hour: 7, minute: 30)
        try repo.updateNotificationSettings(n)
        n.monthlyDay = 32
        #expect(throws: IntentionValidationError.monthlyDay(32)) { try repo.updateNotificationSettings(n) }
        let stored = try #require(try repo.getPreferences())
        #expect(stored.onboardingCompleted)
        #expect(stored.defaultThemeId == PresetThemes.sunset.id)
        #expect(stored.defaultFont == "Georgia")
        #expect(stored.notificationSettings.dailyTime == TimeOfDay(hour: 7, minute: 30))
        #expect(try db.intentions.upcomingReminders().map(\.at) == [instant("2025-05-15T07:30:00Z")])
        try repo.delete(stored)
        #expect(try repo.getPreferences() == nil)
        #expect(try repo.getOrCreatePreferences() == UserPreferences())
    }
}
