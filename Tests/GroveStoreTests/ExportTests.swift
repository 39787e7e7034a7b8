import Foundation
import GRDB
import GroveCore
import Testing

@testable import GroveStore

@Suite("Export and import")
struct ExportTests {
    /// A store with something in every room.
    func populated() throws -> (AppDatabase, TestClock) {
        let (db, clock) = try makeStore(at: "2025-03-10T15:00:00Z", zone: "America/New_York")
        try db.focus.log(start: instant("2025-03-09T06:00:00Z"), end: instant("2025-03-09T06:25:00Z"))
        try db.focus.log(
            start: instant("2025-03-09T08:00:00Z"), end: instant("2025-03-09T08:40:00Z"),
            pauses: [.init(start: instant("2025-03-09T08:10:00Z"), end: instant("2025-03-09T08:20:00Z"))], abandoned: true,
            plannedDuration: 1800)
        try db.focus.start(plannedDuration: 3000)
        clock.advance(by: 100)
        try db.focus.pause()
        let t = try db.timers.create(
            name: "Workout, \"hard\"", durationInSeconds: 1500, colorHex: "#FF3B30", notes: "Hydrate", todos: ["Warm up", "Run"])
        try db.timers.toggleTodo(timerID: t.id, todoID: t.todoItems[1].id)
        var prefs = try db.pause.preferences()
        prefs.enabledApps = ["instagram"]
        prefs.timerDuration = 20
        try db.pause.updatePreferences(prefs)
        try db.pause.saveApp(
            SocialApp(id: "news", displayName: "News", urlScheme: "news://", order: 20, webURL: "https://news.example.org/"))
        let (g, _) = try db.pause.start(appId: "news", platform: "test")
        clock.advance(by: 21)
        try db.pause.finishSession(id: g.id, status: .completed, outcome: .deepenPause)
        try db.pause.start(appId: "instagram", platform: "test")
        try ThemeRepository(database: db).create(OfflineAssistant.theme(for: "ocean calm", id: UUID(), createdAt: clock.now))
        try db.intentions.set("Finish the essay", scope: .week, quote: "Dost thou love life?")
        try db.intentions.set("One page today", scope: .day, themeId: PresetThemes.sunset.id)
        var n = NotificationSettings.default
        n.monthlyEnabled = true
        n.monthlyDay = 31
        try UserPreferencesRepository(database: db).updateNotificationSettings(n)
        return (db, clock)
    }

    @Test func exportImportExportIsIdentical() throws {
        let (db, clock) = try populated()
        let first = try db.transfer.exportJSON()
        let (fresh, freshClock) = try makeStore(at: "2025-03-10T15:00:00Z", zone: "America/New_York")
        freshClock.setWall(clock.now)
        try fresh.transfer.importJSON(first)
        let second = try fresh.transfer.exportJSON()
        #expect(String(decoding: second, as: UTF8.self) == String(decoding: first, as: UTF8.self))
        #expect(try fresh.focus.stats() == db.focus.stats())
        #expect(try fresh.focus.current()?.state == .paused)
        // Importing the same file again changes nothing.
        try fresh.transfer.importJSON(first)
        #expect(try fresh.transfer.exportJSON() == first)
    }

    @Test func exportUsesTheSeedsFieldNames() throws {
        let (db, _) = try populated()
        let json = String(decoding: try db.transfer.exportJSON(), as: UTF8.self)
        for key in [
            "\"focusSessions\"", "\"pausedDuration\"", "\"durationInSeconds\"", "\"colorHex\"", "\"todoItems\"", "\"sortOrder\"",
            "\"urlScheme\"", "\"completionStatus\"", "\"actionOutcome\"", "\"deepen_pause\"", "\"weeklyDay\"", "\"notificationSettings\"",
            "\"backgroundColor\"", "\"isPreset\"", "\"aiRephrased\"", "\"version\" : 1",
        ] {
            #expect(json.contains(key), "export has \(key)")
        }
    }

    @Test func aBadImportChangesNothing() throws {
        let (db, _) = try populated()
        let before = try db.transfer.exportJSON()
        var export = try GroveExport.makeDecoder().decode(GroveExport.self, from: before)
        export.intentions.append(
            Intention(id: UUID(), text: "   ", scope: .day, date: day("2025-03-11"), createdAt: Date(timeIntervalSince1970: 0)))
        let (target, _) = try makeStore()
        let targetBefore = try snapshot(target)
        #expect(throws: IntentionValidationError.emptyText) { try target.transfer.importExport(export) }
        #expect(try snapshot(target) == targetBefore)
        #expect(throws: StoreError.self) { try target.transfer.importJSON(Data("{\"format\": \"grove-export\"}".utf8)) }
        export = try GroveExport.makeDecoder().decode(GroveExport.self, from: before)
        export.version = 99
        #expect(throws: StoreError.unsupportedExportVersion(99)) { try target.transfer.importExport(export) }
        #expect(try snapshot(target) == targetBefore)
    }

    @Test func focusSessionsAsCSV() throws {
        let (db, _) = try populated()
        let csv = try db.transfer.focusSessionsCSV()
        let lines = csv.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(lines.first == "id,startTime,endTime,state,duration,pausedDuration,plannedDuration,timeZone,endDay,tags")
        #expect(lines.count == 4)
        #expect(lines[1].hasSuffix(",2025-03-09T06:00:00.000Z,2025-03-09T06:25:00.000Z,completed,1500,0,1500,America/New_York,2025-03-09,"))
        #expect(lines[2].contains(",abandoned,1800,600,1800,"))
        #expect(AppDatabase.csvField("a,\"b\"") == "\"a,\"\"b\"\"\"")
    }

    @Test func instantsFormatWithMilliseconds() {
        #expect(GroveExport.formatInstant(Date(timeIntervalSince1970: 1_741_503_600.123)) == "2025-03-09T07:00:00.123Z")
        #expect(GroveExport.formatInstant(Date(timeIntervalSince1970: -1.5)) == "1969-12-31T23:59:58.500Z")
        #expect(GroveExport.parseInstant("2025-03-09T07:00:00.123Z") == Date(timeIntervalSince1970: 1_741_503_600.123).groveRoundedToMillis)
        #expect(GroveExport.parseInstant("2025-03-09T02:00:00-05:00") == Date(timeIntervalSince1970: 1_741_503_600))
        #expect(GroveExport.parseInstant("2025-03-09T12:30:00+05:30") == Date(timeIntervalSince1970: 1_741_503_600))
        #expect(GroveExport.parseInstant("2025-03-09T07:00:00.5Z") == Date(timeIntervalSince1970: 1_741_503_600.5))
        #expect(GroveExport.parseInstant("2025-03-09T07:00:00Z") == Date(timeIntervalSince1970: 1_741_503_600))
        #expect(GroveExport.parseInstant("1969-12-31T23:59:58.500Z") == Date(timeIntervalSince1970: -1.5))
        for bad in [
            "2025-02-30T07:00:00Z", "2025-03-09 07:00", "2025-03-09T25:00:00Z", "2025-03-09T07:00:00", "yesterday", "2025-03-09T07:00:00.Z",
        ] {
            #expect(GroveExport.parseInstant(bad) == nil, "\(bad)")
        }
    }
}
