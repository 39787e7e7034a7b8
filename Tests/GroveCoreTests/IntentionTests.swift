import Foundation
import Testing

@testable import GroveCore

@Suite("Intentions: hierarchy, scoping, themes, preferences")
struct IntentionTests {
    let now = instant("2025-05-14T09:00:00Z")

    func intention(_ n: Int, _ scope: IntentionScope, _ date: String, updated: TimeInterval = 0) -> Intention {
        Intention(id: uuid(n), text: "\(scope) \(n)", scope: scope, date: day(date), createdAt: now, updatedAt: now + updated)
    }

    @Test func dayOverridesWeekOverridesMonth() {
        let month = intention(1, .month, "2025-05-02"), week = intention(2, .week, "2025-05-12"), today = intention(3, .day, "2025-05-14")
        let c = ZonedCalendar(timeZone: utc.timeZone, firstWeekday: 1)
        #expect(IntentionHierarchy.current(from: [month, week, today], on: day("2025-05-14"), calendar: c) == today)
        #expect(IntentionHierarchy.current(from: [month, week], on: day("2025-05-14"), calendar: c) == week)
        #expect(IntentionHierarchy.current(from: [month], on: day("2025-05-14"), calendar: c) == month)
        #expect(IntentionHierarchy.current(from: [month, week, today], on: day("2025-05-15"), calendar: c) == week)
        #expect(
            IntentionHierarchy.current(from: [month, week, today], on: day("2025-05-19"), calendar: c) == month,
            "next week: back to the month")
        #expect(IntentionHierarchy.current(from: [month, week, today], on: day("2025-06-01"), calendar: c) == nil)
        #expect(IntentionHierarchy.current(from: [], on: day("2025-06-01"), calendar: c) == nil)
    }

    @Test func theMostRecentlyUpdatedWinsWithinAScope() {
        let a = intention(1, .day, "2025-05-14", updated: 10), b = intention(2, .day, "2025-05-14", updated: 20)
        #expect(IntentionHierarchy.current(from: [a, b], on: day("2025-05-14"), calendar: utc) == b)
    }

    @Test func weeksFollowTheConfiguredFirstWeekday() {
        let sundayWeeks = ZonedCalendar(timeZone: utc.timeZone, firstWeekday: 0)
        let mondayWeeks = ZonedCalendar(timeZone: utc.timeZone, firstWeekday: 1)
        // 2025-05-18 is a Sunday.
        #expect(IntentionScope.week.period(containing: day("2025-05-18"), calendar: sundayWeeks) == day("2025-05-18")..<day("2025-05-25"))
        #expect(IntentionScope.week.period(containing: day("2025-05-18"), calendar: mondayWeeks) == day("2025-05-12")..<day("2025-05-19"))
        #expect(IntentionScope.month.period(containing: day("2025-02-14"), calendar: utc) == day("2025-02-01")..<day("2025-03-01"))
        #expect(IntentionScope.day.period(containing: day("2025-02-14"), calendar: utc) == day("2025-02-14")..<day("2025-02-15"))
        let week = intention(1, .week, "2025-05-14")
        #expect(week.covers(day("2025-05-18"), calendar: mondayWeeks))
        #expect(!week.covers(day("2025-05-18"), calendar: sundayWeeks))
    }

    @Test func intentionValidation() {
        var i = intention(1, .day, "2025-05-14")
        i.text = "  \n "
        #expect(throws: IntentionValidationError.emptyText) { try i.validate() }
        i.text = String(repeating: "x", count: 501)
        #expect(throws: IntentionValidationError.textTooLong(501)) { try i.validate() }
        #expect(IntentionValidationError.emptyText.message == "Intention text cannot be empty")
        #expect(IntentionValidationError.emptyText.field == "text")
    }

    @Test func themesValidateHexColoursAndThePresetsAreReadable() throws {
        let presets = PresetThemes.getAll()
        #expect(presets.map(\.name) == ["Serene", "Vibrant", "Minimal", "Sunset", "Ocean"])
        #expect(Set(presets.map(\.id)).count == 5)
        for theme in presets {
            try theme.validate()
            #expect(theme.isPreset)
            #expect(theme.contrastRatio >= 4.5, "\(theme.name) is readable")
        }
        var t = presets[0]
        t.backgroundColor = "#GGGGGG"
        #expect(throws: IntentionValidationError.invalidColor(field: "backgroundColor", value: "#GGGGGG")) { try t.validate() }
        t = presets[0]
        t.accentColor = "#12345"
        #expect(throws: IntentionValidationError.invalidColor(field: "accentColor", value: "#12345")) { try t.validate() }
        t = presets[0]
        t.name = " "
        #expect(throws: IntentionValidationError.emptyThemeName) { try t.validate() }
        #expect(HexColor.contrastRatio("#000000", "#FFFFFF")! > 20.9)
    }

    @Test func notificationSettingsRanges() throws {
        var n = NotificationSettings.default
        try n.validate()
        n.weeklyDay = 7
        #expect(throws: IntentionValidationError.weeklyDay(7)) { try n.validate() }
        n = .default
        n.monthlyDay = 0
        #expect(throws: IntentionValidationError.monthlyDay(0)) { try n.validate() }
        n.monthlyDay = 32
        #expect(throws: IntentionValidationError.monthlyDay(32)) { try n.validate() }
        n = .default
        n.dailyEnabled = true
        n.dailyTime = nil
        #expect(throws: IntentionValidationError.missingReminderTime("dailyTime")) { try n.validate() }
        var p = UserPreferences()
        p.timeZoneIdentifier = "Mars/Olympus"
        #expect(throws: IntentionValidationError.unknownTimeZone("Mars/Olympus")) { try p.validate() }
    }
}

@Suite("Reminder fire instants (DESIGN.md matrix)")
struct ReminderTests {
    func settings(daily: String? = nil, weekly: (Int, String)? = nil, monthly: (Int, String)? = nil) -> NotificationSettings {
        var n = NotificationSettings.default
        if let daily { n.dailyEnabled = true; n.dailyTime = TimeOfDay(daily) }
        if let weekly { n.weeklyEnabled = true; n.weeklyDay = weekly.0; n.weeklyTime = TimeOfDay(weekly.1) }
        if let monthly { n.monthlyEnabled = true; n.monthlyDay = monthly.0; n.monthlyTime = TimeOfDay(monthly.1) }
        return n
    }

    func next(_ kind: ReminderKind, _ s: NotificationSettings, after: String, _ c: ZonedCalendar) -> Date? {
        ReminderSchedule.nextFire(kind, settings: s, after: instant(after), calendar: c)
    }

    @Test func offRemindersNeverFire() {
        #expect(next(.daily, .default, after: "2025-01-01T00:00:00Z", utc) == nil)
        #expect(ReminderSchedule.upcoming(settings: .default, after: instant("2025-01-01T00:00:00Z"), calendar: utc).isEmpty)
    }

    @Test func dailyOrdinaryDays() {
        let s = settings(daily: "08:00")
        #expect(next(.daily, s, after: "2025-06-01T11:00:00Z", newYork) == instant("2025-06-01T12:00:00Z"))
        #expect(next(.daily, s, after: "2025-06-01T12:00:00Z", newYork) == instant("2025-06-02T12:00:00Z"), "strictly after now")
    }

    @Test func newYorkSpringForwardSkippedTimeFiresAtTheFirstInstantAfterTheGap() {
        let s = settings(daily: "02:30")
        #expect(next(.daily, s, after: "2025-03-08T12:00:00Z", newYork) == instant("2025-03-09T07:00:00Z"))  // 03:00 EDT
        #expect(next(.daily, s, after: "2025-03-09T07:00:00Z", newYork) == instant("2025-03-10T06:30:00Z"))
    }

    @Test func newYorkFallBackRepeatedTimeFiresOnce() {
        let s = settings(daily: "01:30")
        #expect(next(.daily, s, after: "2025-11-02T04:00:00Z", newYork) == instant("2025-11-02T05:30:00Z"))  // first 01:30 (EDT)
        // Between the two 01:30s the next fire is tomorrow's, not the repeat.
        #expect(next(.daily, s, after: "2025-11-02T05:45:00Z", newYork) == instant("2025-11-03T06:30:00Z"))
    }

    @Test func lordHoweHalfHourShifts() {
        #expect(next(.daily, settings(daily: "02:15"), after: "2025-10-04T12:00:00Z", lordHowe) == instant("2025-10-04T15:30:00Z"))
        #expect(next(.daily, settings(daily: "01:45"), after: "2025-04-05T12:00:00Z", lordHowe) == instant("2025-04-05T14:45:00Z"))
        #expect(next(.daily, settings(daily: "01:45"), after: "2025-04-05T14:50:00Z", lordHowe) == instant("2025-04-06T15:15:00Z"))
    }

    @Test func apiaDailyReminderSkipsTheDayThatNeverHappened() {
        // 10:00 on 2011-12-29 in Apia (UTC−10) is 20:00Z; the next 09:00 is on the 31st (UTC+14).
        #expect(next(.daily, settings(daily: "09:00"), after: "2011-12-29T20:00:00Z", apia) == instant("2011-12-30T19:00:00Z"))
        // A monthly reminder on the 30th fires at the first instant after the gap: 2011-12-31 00:00.
        #expect(next(.monthly, settings(monthly: (30, "09:00")), after: "2011-12-29T20:00:00Z", apia) == instant("2011-12-30T10:00:00Z"))
    }

    @Test func monthlyDays29To31FallOnTheLastDayOfShorterMonths() {
        let s31 = settings(monthly: (31, "09:00"))
        #expect(next(.monthly, s31, after: "2025-02-01T00:00:00Z", utc) == instant("2025-02-28T09:00:00Z"))
        #expect(next(.monthly, s31, after: "2024-02-01T00:00:00Z", utc) == instant("2024-02-29T09:00:00Z"))
        #expect(next(.monthly, s31, after: "2025-04-01T00:00:00Z", utc) == instant("2025-04-30T09:00:00Z"))
        #expect(next(.monthly, s31, after: "2025-04-30T09:00:00Z", utc) == instant("2025-05-31T09:00:00Z"))
        #expect(next(.monthly, settings(monthly: (29, "09:00")), after: "2025-02-01T00:00:00Z", utc) == instant("2025-02-28T09:00:00Z"))
        #expect(next(.monthly, settings(monthly: (30, "09:00")), after: "2025-01-30T10:00:00Z", utc) == instant("2025-02-28T09:00:00Z"))
    }

    @Test func weeklyUsesSundayZero() {
        let sunday = settings(weekly: (0, "18:00"))
        // 2025-05-14 is a Wednesday.
        #expect(next(.weekly, sunday, after: "2025-05-14T00:00:00Z", utc) == instant("2025-05-18T18:00:00Z"))
        #expect(next(.weekly, sunday, after: "2025-05-18T18:00:00Z", utc) == instant("2025-05-25T18:00:00Z"))
        #expect(next(.weekly, settings(weekly: (3, "08:00")), after: "2025-05-14T07:00:00Z", utc) == instant("2025-05-14T08:00:00Z"))
        // Sunday 2025-03-09 02:30 New York does not exist: first instant after the gap.
        #expect(next(.weekly, settings(weekly: (0, "02:30")), after: "2025-03-08T00:00:00Z", newYork) == instant("2025-03-09T07:00:00Z"))
    }

    @Test func travellersGetRemindersInTheConfiguredZone() {
        let s = settings(daily: "08:00")
        #expect(next(.daily, s, after: "2025-06-01T00:00:00Z", zone("Etc/GMT-14")) == instant("2025-06-01T18:00:00Z"))
        #expect(next(.daily, s, after: "2025-06-01T00:00:00Z", zone("Etc/GMT+12")) == instant("2025-06-01T20:00:00Z"))
        let upcoming = ReminderSchedule.upcoming(
            settings: settings(daily: "08:00", weekly: (0, "09:00")), after: instant("2025-05-14T00:00:00Z"), calendar: utc)
        #expect(upcoming.map(\.kind) == [.daily, .weekly])
    }
}

@Suite("Assistant and bundled content")
struct AssistantTests {
    @Test func rephrasingIsDeterministicAndKeepsTheCore() async throws {
        let assistant = OfflineAssistant()
        let a = try await assistant.rephrase("Focus on mindfulness today.", scope: .day)
        let b = try await assistant.rephrase("Focus on mindfulness today.", scope: .day)
        #expect(a == b)
        #expect(a.contains("focus on mindfulness"))
        #expect(!a.lowercased().contains("today today"))
        let week = try await assistant.rephrase("I will finish the report", scope: .week)
        #expect(week.contains("finish the report"))
        #expect(week.lowercased().contains("week"))
    }

    @Test func quotesComeFromTheLibrary() async throws {
        let quote = try #require(try await OfflineAssistant().quote(for: "Spend my time well, do not waste it", from: BundledContent.all))
        #expect(BundledContent.all.contains { quote.hasPrefix($0.text) && $0.type == .quote })
        #expect(try await OfflineAssistant().quote(for: "anything", from: []) == nil)
    }

    @Test(arguments: ["ocean calm", "night focus", "warm sunrise energy", "forest", "", "zxcv", "dream of spring", "🌲 grove"])
    func generatedThemesAreReadable(prompt: String) async throws {
        let theme = try await OfflineAssistant().generateTheme(prompt: prompt, id: uuid(1), createdAt: Date(timeIntervalSince1970: 0))
        try theme.validate()
        #expect(theme.contrastRatio >= OfflineAssistant.minimumContrast)
        #expect(theme.isAIGenerated)
        #expect(!theme.isPreset)
        #expect(OfflineAssistant.theme(for: prompt, id: uuid(1), createdAt: Date(timeIntervalSince1970: 0)) == theme)
    }

    /// The words decide the palette: a named colour its hue, night or morning its darkness.
    @Test func generatedThemesFollowTheWords() throws {
        func rgb(_ hex: String) -> (Int, Int, Int) {
            let value = Int(hex.dropFirst(), radix: 16) ?? 0
            return (value >> 16, (value >> 8) & 0xFF, value & 0xFF)
        }
        func luminance(_ hex: String) -> Int { let (r, g, b) = rgb(hex); return r + g + b }
        let volcano = OfflineAssistant.theme(for: "angry red volcano at night", id: uuid(1), createdAt: Date(timeIntervalSince1970: 0))
        let (r, g, b) = rgb(volcano.backgroundColor)
        #expect(r > g && r > b, "red, not \(volcano.backgroundColor)")
        #expect(luminance(volcano.backgroundColor) < 300 && volcano.textColor == "#FFFFFF", "dark with light text")
        let ocean = OfflineAssistant.theme(for: "calm ocean morning", id: uuid(1), createdAt: Date(timeIntervalSince1970: 0))
        let (or, _, ob) = rgb(ocean.backgroundColor)
        #expect(ob > or && luminance(ocean.backgroundColor) > 500, "light blue, not \(ocean.backgroundColor)")
        let forest = OfflineAssistant.theme(for: "deep green forest", id: uuid(1), createdAt: Date(timeIntervalSince1970: 0))
        let (fr, fg, fb) = rgb(forest.backgroundColor)
        #expect(fg > fr && fg > fb, "green, not \(forest.backgroundColor)")
    }

    @Test func bundledPackIsLargeVariedAndValid() throws {
        let all = BundledContent.all
        #expect(all.count >= 60)
        #expect(Set(all.map(\.type)) == Set(MindfulnessContent.ContentType.allCases))
        #expect(Set(all.map(\.category)).count >= 5)
        #expect(Set(all.map(\.id)).count == all.count, "ids are unique")
        for item in all {
            try item.validate()
            #expect(item.isBundled)
            #expect(item.author?.isEmpty == false, "every item is attributed")
        }
    }
}

@Suite("Intention cards: period labels, layers, fonts, readable accents")
struct IntentionCardTests {
    let now = instant("2026-11-23T09:00:00Z")

    @Test func periodsAreLabelledAsPeriodsNeverAsADay() {
        let monday = ZonedCalendar(timeZone: utc.timeZone, firstWeekday: 1)
        let fromMonday = ZonedCalendar(timeZone: utc.timeZone, firstWeekday: 1)
        #expect(IntentionScope.day.periodLabel(containing: day("2026-11-23"), calendar: monday) == "Mon 23 Nov 2026")
        #expect(IntentionScope.week.periodLabel(containing: day("2026-11-19"), calendar: fromMonday) == "Week of 16–22 Nov")
        #expect(
            IntentionScope.week.periodLabel(containing: day("2026-11-19"), calendar: ZonedCalendar(timeZone: utc.timeZone, firstWeekday: 0))
                == "Week of 15–21 Nov")
        #expect(IntentionScope.week.periodLabel(containing: day("2026-12-02"), calendar: fromMonday) == "Week of 30 Nov – 6 Dec")
        #expect(IntentionScope.week.periodLabel(containing: day("2026-12-30"), calendar: fromMonday) == "Week of 28 Dec 2026 – 3 Jan 2027")
        #expect(IntentionScope.month.periodLabel(containing: day("2026-11-19"), calendar: fromMonday) == "November 2026")
    }

    @Test func layersGiveTheIntentionOfEachScopeInEffectDayFirst() {
        let c = ZonedCalendar(timeZone: utc.timeZone, firstWeekday: 1)
        let month = Intention(id: uuid(1), text: "m", scope: .month, date: day("2026-11-01"), createdAt: now)
        let week = Intention(id: uuid(2), text: "w", scope: .week, date: day("2026-11-23"), createdAt: now)
        let oldWeek = Intention(id: uuid(3), text: "old", scope: .week, date: day("2026-11-16"), createdAt: now)
        let today = Intention(id: uuid(4), text: "d", scope: .day, date: day("2026-11-23"), createdAt: now)
        #expect(
            IntentionHierarchy.layers(from: [month, oldWeek, week, today], on: day("2026-11-23"), calendar: c).map(\.text) == [
                "d", "w", "m",
            ])
        #expect(IntentionHierarchy.layers(from: [month, oldWeek], on: day("2026-11-23"), calendar: c).map(\.text) == ["m"])
        #expect(IntentionHierarchy.layers(from: [], on: day("2026-11-23"), calendar: c).isEmpty)
    }

    @Test func fontsAreWebSafeStacksAndNamesNeverReachCSSUnchecked() {
        #expect(FontStack.css(for: "Serif") == FontStack.serif.css)
        #expect(FontStack.css(for: " mono ") == FontStack.mono.css)
        #expect(FontStack.css(for: "Georgia")?.hasPrefix("'Georgia', system-ui") == true)
        #expect(FontStack.css(for: "x; background:url(https://evil)") == nil)
        #expect(FontStack.css(for: "a'b") == nil && FontStack.css(for: "") == nil && FontStack.css(for: nil) == nil)
        #expect(FontStack.resolve(intention: nil, theme: "mono", preferred: "serif") == FontStack.mono.css)
        #expect(FontStack.resolve(intention: "rounded", theme: "mono", preferred: "serif") == FontStack.rounded.css)
        #expect(FontStack.resolve(intention: "}", theme: nil, preferred: "serif") == FontStack.serif.css, "an unusable name falls through")
    }

    @Test func anAccentTooFaintForItsBackgroundGivesWayToTheText() {
        #expect(PresetThemes.minimal.readableAccent == "#000000", "grey #9E9E9E on white is 2.7:1")
        #expect(PresetThemes.vibrant.readableAccent == "#FFFFFF", "amber on red is 3.3:1")
        var forest = PresetThemes.minimal
        forest.accentColor = "#1B5E20"
        #expect(forest.readableAccent == "#1B5E20", "dark green on white is 7.9:1")
        var plain = PresetThemes.serene
        plain.accentColor = nil
        #expect(plain.readableAccent == plain.textColor)
    }
}
