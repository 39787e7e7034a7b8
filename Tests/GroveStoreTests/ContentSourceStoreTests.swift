import Foundation
import GRDB
import GroveCore
import Testing

@testable import GroveStore

@Suite("Content sources in the store")
struct ContentSourceStoreTests {
    static let url = "https://packs.example/calm.json"
    static let text = "Between stimulus and response there is a space; in that space is our power to choose a response."

    static func item(_ id: String, category: MindfulnessContent.ContentCategory = .mindfulness, text: String = text, priority: Int = 5)
        -> MindfulnessContent
    {
        MindfulnessContent(id: id, type: .quote, text: text, category: category, priority: priority)
    }

    @Test func aPackIsAppliedWithItsValidatorAndTheSyncTime() throws {
        let (db, clock) = try makeStore()
        try db.content.addSource(url: " \(Self.url) ")
        #expect(try db.content.sourcesDue().map(\.url) == [Self.url])
        let report = try db.content.apply(ContentPack(items: [Self.item("p-1"), Self.item("p-2")]), from: Self.url, etag: "\"v1\"")
        #expect(report.added == 2 && report.updated == 0)
        let source = try #require(try db.content.source(url: Self.url))
        #expect(source.etag == "\"v1\"" && source.itemCount == 2 && source.lastFetched == clock.now && source.lastError == nil)
        #expect(try db.pause.preferences().lastContentSync == clock.now)
        #expect(try db.content.item(id: "p-1")?.source == Self.url)
        #expect(try db.content.item(id: "p-1")?.isBundled == false)
        // Fresh for a day.
        clock.advance(by: 86_399)
        #expect(try db.content.sourcesDue().isEmpty)
        clock.advance(by: 1)
        #expect(try db.content.sourcesDue().map(\.url) == [Self.url])
        try db.content.markUnchanged(url: Self.url)
        #expect(try db.content.sourcesDue().isEmpty)
        #expect(try db.pause.preferences().lastContentSync == clock.now)
    }

    @Test func aRefreshKeepsTheRotationCountersAndWithdrawsWhatThePackDropped() throws {
        let (db, _) = try makeStore()
        try db.content.addSource(url: Self.url)
        try db.content.apply(
            ContentPack(items: [
                Self.item("p-1", category: .nature), Self.item("p-2", category: .nature), Self.item("p-3", category: .nature),
            ]),
            from: Self.url, etag: nil)
        _ = try db.pause.changePreferences { $0.selectedCategories = [.nature] }
        // Show every nature item once (bundled ones included), so that p-1 has a history.
        let natureCount = try db.content.all(category: .nature).count
        var shown = Set<String>()
        for _ in 0..<natureCount { shown.insert(try db.pause.start(appId: "instagram", platform: "test").content.id) }
        #expect(shown.contains("p-1") && shown.contains("p-2"))
        let before = try #require(try db.content.item(id: "p-1"))
        #expect(before.timesShown == 1)

        // p-1 changes, p-2 and p-3 (both shown) go, p-4 arrives.
        let changed = Self.item("p-1", category: .nature, text: Self.text + " Again.", priority: 8)
        let report = try db.content.apply(
            ContentPack(items: [changed, Self.item("p-4", category: .nature)]), from: Self.url, etag: "\"v2\"")
        #expect(report.added == 1 && report.updated == 1 && report.retired == 2 && report.removed == 0)
        let after = try #require(try db.content.item(id: "p-1"))
        #expect(after.text.hasSuffix("Again.") && after.priority == 8 && after.timesShown == 1 && after.lastUsed == before.lastUsed)
        #expect(try db.content.all().contains { $0.id == "p-2" } == false, "a retired item is not listed")
        #expect(try db.content.item(id: "p-2") != nil, "…but stays for the pause that showed it")
        for _ in 0..<(natureCount * 2) { #expect(try db.pause.start(appId: "instagram", platform: "test").content.id != "p-2") }

        // An item back in the pack comes back (p-1 and p-4 were shown by the loop above, so they retire).
        let back = try db.content.apply(ContentPack(items: [Self.item("p-2", category: .nature)]), from: Self.url, etag: nil)
        #expect(back.added == 0 && back.updated == 1 && back.retired == 2 && back.removed == 0)
        #expect(try db.content.all().contains { $0.id == "p-2" })
        #expect(try db.content.source(url: Self.url)?.itemCount == 1)
    }

    @Test func aPackCannotTakeTheIdOfYourItemsTheBundledPackOrAnotherSource() throws {
        let (db, _) = try makeStore()
        let other = "https://other.example/pack"
        try db.content.addSource(url: Self.url)
        try db.content.addSource(url: other)
        try db.content.save([Self.item("mine")])
        let bundledID = try #require(BundledContent.all.first?.id)
        try db.content.apply(ContentPack(items: [Self.item("theirs")]), from: other, etag: nil)
        let mine = try #require(try db.content.item(id: "mine"))
        let report = try db.content.apply(
            ContentPack(items: [
                Self.item("mine", text: Self.text + " Changed."), Self.item(bundledID), Self.item("theirs"), Self.item("new"),
            ]),
            from: Self.url, etag: nil)
        #expect(report.added == 1 && report.updated == 0)
        #expect(
            report.skipped.map(\.reason) == [
                "id: already used by one of your own items", "id: already used by the bundled pack",
                "id: already used by the source \(other)",
            ])
        #expect(try db.content.item(id: "mine") == mine)
        #expect(try db.content.item(id: bundledID)?.isBundled == true)
        #expect(try db.content.item(id: "theirs")?.source == other)
    }

    @Test func removingASourceDeletesItsItemsButKeepsWhatAPauseShowed() throws {
        let (db, _) = try makeStore()
        try db.content.addSource(url: Self.url)
        try db.content.apply(
            ContentPack(items: [Self.item("p-1", category: .gratitude), Self.item("p-2", category: .philosophy)]), from: Self.url, etag: nil
        )
        _ = try db.pause.changePreferences { $0.selectedCategories = [.gratitude] }
        let gratitude = try db.content.all(category: .gratitude).count
        var pauses: [GatewaySession] = []
        for _ in 0..<gratitude { pauses.append(try db.pause.start(appId: "instagram", platform: "test").session) }
        let showedP1 = try #require(pauses.first { $0.contentId == "p-1" })
        let report = try db.content.removeSource(url: Self.url)
        #expect(report.retired == 1 && report.removed == 1)
        #expect(try db.content.sources().isEmpty)
        #expect(try db.content.item(id: "p-2") == nil)
        #expect(try db.pause.session(id: showedP1.id) != nil, "the pause's history stays")
        #expect(try db.content.item(id: "p-1")?.source == Self.url, "a retired item still names its source")
        #expect(try db.content.all().contains { $0.id == "p-1" } == false)
        #expect(throws: PauseValidationError.unknownContentSource(Self.url)) { try db.content.removeSource(url: Self.url) }
    }

    @Test func badSourcesAreRefusedAndChangeNothing() throws {
        let (db, _) = try makeStore()
        let before = try snapshot(db)
        #expect(throws: PauseValidationError.invalidContentSource("ftp://x.example/p")) {
            try db.content.addSource(url: "ftp://x.example/p")
        }
        #expect(throws: PauseValidationError.self) { try db.content.addSource(url: "not a url") }
        #expect(try snapshot(db) == before)
        try db.content.addSource(url: Self.url)
        #expect(throws: PauseValidationError.duplicateContentSource(Self.url)) { try db.content.addSource(url: Self.url) }
        #expect(throws: PauseValidationError.unknownContentSource("https://nope.example/")) {
            try db.content.apply(ContentPack(items: [Self.item("x")]), from: "https://nope.example/", etag: nil)
        }
        #expect(throws: PauseValidationError.unknownContentSource("https://nope.example/")) {
            try db.content.markUnchanged(url: "https://nope.example/")
        }
    }

    @Test func aFailedCheckIsRetriedWithinTheHourAndKeepsThePack() throws {
        let (db, clock) = try makeStore()
        try db.content.addSource(url: Self.url)
        try db.content.apply(ContentPack(items: [Self.item("p-1")]), from: Self.url, etag: "\"v1\"")
        clock.advance(by: 86_400)
        try db.content.recordFailure(url: Self.url, message: "Could not reach the source")
        let source = try #require(try db.content.source(url: Self.url))
        #expect(source.lastError == "Could not reach the source" && source.itemCount == 1 && source.etag == "\"v1\"")
        #expect(try db.content.item(id: "p-1") != nil)
        clock.advance(by: 3_599)
        #expect(try db.content.sourcesDue().isEmpty)
        clock.advance(by: 1)
        #expect(try db.content.sourcesDue().count == 1)
    }
}
