import Foundation
import GRDB
import GroveCore
import Testing

@testable import GroveStore

/// Rules that every face shares because the store holds them (issue: every number true).
@Suite("One rule in the store, for every face")
struct OneRuleStoreTests {
    @Test("a gated app waits behind a growing tree whichever face asks: nothing is counted")
    func gateWaitsBehindTheTree() throws {
        let (db, clock) = try makeStore()
        try db.pause.setAppEnabled(id: "youtube", true)
        try db.focus.start(plannedDuration: 1500)
        #expect(throws: PauseValidationError.treeGrowing("YouTube")) { _ = try db.pause.open(appId: "youtube", platform: "api") }
        #expect(try db.pause.attemptsToday(appId: "youtube") == 0)
        // A paused tree does not hold the gate; neither does a tree let go.
        try db.focus.pause()
        clock.advance(by: 1)
        #expect(try db.pause.open(appId: "youtube", platform: "api").attemptsBefore == 0)
        try db.focus.resume()
        try db.focus.abandon()
        #expect(try db.pause.open(appId: "youtube", platform: "api").attemptsBefore == 1)
    }

    @Test("a tag typed in another case is the tag already used: one tag, one spelling")
    func oneSpellingPerTag() throws {
        let (db, clock) = try makeStore()
        try db.focus.start(plannedDuration: 600, tags: ["Reading", "reading", "Deep work"])
        clock.advance(by: 601)
        let second = try db.focus.start(plannedDuration: 600, tags: ["READING", "essay"])
        #expect(second.tags == ["Reading", "essay"])
        clock.advance(by: 601)
        let logged = try db.focus.log(
            start: clock.now.addingTimeInterval(-7200), end: clock.now.addingTimeInterval(-6900), tags: ["deep work"])
        #expect(logged.tags == ["Deep work"])
        #expect(try db.focus.retag(id: second.id, tags: ["deep WORK", "reading"]).tags == ["Deep work", "Reading"])
        #expect(Set(try db.focus.tags().map(\.tag)) == ["Reading", "Deep work"])
    }

    @Test("two devices' spellings of one tag, met through sync, are one tag in every count and filter")
    func spellingsMetThroughSyncAreOneTag() throws {
        let (db, clock) = try makeStore()
        let here = try db.focus.log(start: clock.now.addingTimeInterval(-7200), end: clock.now.addingTimeInterval(-6600), tags: ["Reading"])
        let there = try db.focus.log(start: clock.now.addingTimeInterval(-3600), end: clock.now.addingTimeInterval(-3000), tags: ["essay"])
        // The other device's spelling arrives as a pulled row does: written as it was, not respelled.
        try db.writer.write { db in
            try db.execute(sql: "UPDATE focus_session SET tags = ? WHERE id = ?", arguments: [#"["reading"]"#, there.id.uuidString])
        }
        let tags = try db.focus.tags()
        #expect(tags.map(\.tag) == ["Reading"] && tags.first?.trees == 2, "\(tags)")
        #expect(try db.focus.stats(tag: "READING").totalTrees == 2)
        let forest = try db.focus.forest(tag: "reading")
        #expect(
            forest.days.map(\.trees).reduce(0, +) == 2 && forest.days.flatMap(\.sessions).count == 2,
            "\(forest.days.map { ($0.day, $0.trees, $0.sessions.map(\.tags)) })")
        var exported = Data()
        try db.transfer.export(as: .csv, tag: "reading") { exported.append($0) }
        let csv = String(decoding: exported, as: UTF8.self)
        #expect(csv.contains(here.id.uuidString) && csv.contains(there.id.uuidString))
        let today = db.environment.now()
        let day = try db.calendar().localDay(of: today)
        #expect(try db.focus.tagTotals(from: day.adding(days: -1), to: day).map(\.tag) == ["Reading"])
    }

    @Test("the pause length in the preferences is refused under its own name")
    func preferencesNameTheirField() throws {
        let (db, _) = try makeStore()
        var preferences = try db.pause.preferences()
        preferences.timerDuration = 10
        #expect(throws: PauseValidationError.timerDuration(10)) { try db.pause.updatePreferences(preferences) }
        #expect(PauseValidationError.timerDuration(10).field == "timerDuration")
    }
}
