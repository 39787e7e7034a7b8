import Foundation
import GroveCore
import GroveTestSupport
import Testing

@testable import GroveStore

/// Paths that answer a question about a window, a page or the latest session must cost the same
/// whatever lies further back. Each is run on a store with two weeks of history and on the same
/// store with thousands of older sessions; SQLite's step counts must stay flat.
// Serialized: the step counter is one trace hook per connection, and the stores are shared.
@Suite("Flat at any history size: windows and pages cost what they show", .serialized, .heavy)
struct HistorySizeTests {
    /// Two stores, built once: the same recent weeks, one with years more behind them.
    static let shared = Result { try makeStores() }

    static func stores() throws -> (recent: AppDatabase, long: AppDatabase) { try shared.get() }

    static func makeStores() throws -> (recent: AppDatabase, long: AppDatabase) {
        let calendar = ZonedCalendar(identifier: "UTC")!
        let today = LocalDay("2025-05-01")!
        // Every third session is for the essay (the tag paths must be flat too).
        func tagged(_ sessions: [FocusSession]) -> [FocusSession] {
            sessions.enumerated().map { index, session in
                var s = session; if index % 3 == 0 { s.tags = ["essay"] }; return s
            }
        }
        let recent = tagged(SyntheticHistory.sessions(count: 60, days: 20, lastDay: today, calendar: calendar))
        let older = tagged(SyntheticHistory.sessions(count: 6_000, days: 1_000, lastDay: today.adding(days: -30), calendar: calendar))
        let (short, _) = try makeStore(at: "2025-05-01T20:00:00Z")
        try short.focus.insert(recent)
        let (long, _) = try makeStore(at: "2025-05-01T20:00:00Z")
        try long.focus.insert(older + recent)
        return (short, long)
    }

    static func expectFlat(_ label: String, _ stores: (recent: AppDatabase, long: AppDatabase), _ body: (AppDatabase) throws -> Void) throws
    {
        let small = try SQLiteWork.of(stores.recent) { try body(stores.recent) }
        let large = try SQLiteWork.of(stores.long) { try body(stores.long) }
        #expect(small > 0, "\(label): the counter saw the queries")
        // A few steps more for a deeper index is fine; a path that visits the old sessions takes
        // thousands more.
        #expect(large <= small + small / 4 + 100, "\(label): \(small) steps with 60 sessions, \(large) with 6,060")
    }

    /// A page deep in the history, by the cursor the page before ends with, costs what the first page
    /// costs; by offset it steps over every row before it.
    @Test func aDeepPageByCursorCostsWhatTheFirstPageCosts() throws {
        let db = try Self.stores().long
        for byEnd in [false, true] {
            let deep = try #require(
                try byEnd ? db.focus.completed(limit: 1, offset: 5_000).first : db.focus.sessions(limit: 1, offset: 5_000).first)
            let cursor = SessionCursor(time: byEnd ? try #require(deep.endTime) : deep.startTime, id: deep.id)
            let page: (SessionCursor?, Int) throws -> [FocusSession] = { after, offset in
                byEnd
                    ? try db.focus.completed(limit: 50, offset: offset, after: after)
                    : try db.focus.sessions(limit: 50, offset: offset, after: after)
            }
            let first = try SQLiteWork.of(db) { _ = try page(nil, 0) }
            let byCursor = try SQLiteWork.of(db) { _ = try page(cursor, 0) }
            let byOffset = try SQLiteWork.of(db) { _ = try page(nil, 5_001) }
            #expect(byCursor <= first + first / 4 + 100, "\(byEnd ? "forest" : "sessions"): \(byCursor) steps by cursor, \(first) first")
            #expect(byOffset > byCursor * 10, "the offset's cost, for comparison: \(byOffset)")
            // The same sessions either way.
            #expect(try page(cursor, 0).map(\.id) == page(nil, 5_001).map(\.id))
        }
    }

    /// Walking every page by cursor meets every session once, in order, ties on an instant included.
    @Test func pagesByCursorCoverTheListOnce() throws {
        let (db, _) = try makeStore(at: "2025-05-01T20:00:00Z")
        let calendar = ZonedCalendar(identifier: "UTC")!
        var sessions = SyntheticHistory.sessions(count: 40, days: 5, lastDay: LocalDay("2025-05-01")!, calendar: calendar)
        // Four sessions share one start (an import may): the cursor's id breaks the tie.
        for index in 1..<4 { sessions[index].startTime = sessions[0].startTime }
        try db.focus.insert(sessions)
        let all = try db.focus.sessions(limit: 1000).map(\.id)
        var walked: [UUID] = []
        var after: SessionCursor?
        while true {
            let page = try db.focus.sessions(limit: 7, after: after)
            walked += page.map(\.id)
            guard page.count == 7, let last = page.last else { break }
            after = SessionCursor(time: last.startTime, id: last.id)
        }
        #expect(walked == all && Set(walked).count == 40)
    }

    @Test func theForestWindowReadsTheDaysItShows() throws {
        let stores = try Self.stores()
        let window = try stores.long.focus.forest(days: 7)
        #expect(window.days.count == 7)
        #expect(window.days.allSatisfy { $0.sessions.count == $0.trees && $0.trees > 0 })
        #expect(window.days.map(\.day) == window.days.map(\.day).sorted(by: >))
        #expect(window.older == window.days.last?.day)
        let next = try stores.long.focus.forest(days: 7, before: try #require(window.older))
        #expect(next.days.first.map { $0.day < window.days.last!.day } == true)
        try Self.expectFlat("forest window", stores) { _ = try $0.focus.forest(days: 7) }
        try Self.expectFlat("forest counts", stores) { _ = try $0.focus.forest(days: 7, sessions: false) }
        try Self.expectFlat("one tag's forest", stores) { _ = try $0.focus.forest(days: 7, tag: "essay") }
        try Self.expectFlat("a week's tags", stores) {
            _ = try $0.focus.tagTotals(from: LocalDay("2025-04-25")!, to: LocalDay("2025-05-01")!)
        }
        try Self.expectFlat("retagging a session", stores) { db in
            _ = try db.focus.retag(id: try #require(try db.focus.latest()).id, tags: ["essay", "review"])
        }
    }

    @Test func theLatestSessionAndPagesAreIndexed() throws {
        let stores = try Self.stores()
        try Self.expectFlat("latest session", stores) { _ = try $0.focus.latest() }
        try Self.expectFlat("a page of sessions", stores) { _ = try $0.focus.sessions(limit: 20) }
        try Self.expectFlat("a page of completed sessions", stores) { _ = try $0.focus.sessions(state: .completed, limit: 20) }
        try Self.expectFlat("the newest trees", stores) { _ = try $0.focus.completed(limit: 20) }
        try Self.expectFlat("today's trees", stores) { _ = try $0.focus.completedToday() }
        try Self.expectFlat("the current session", stores) { _ = try $0.focus.current() }
        try Self.expectFlat("the weekly review", stores) { _ = try $0.review.week() }
        try Self.expectFlat("last week's review", stores) { _ = try $0.review.week(containing: LocalDay("2025-04-24")) }
    }

    /// The counter itself must see a path that reads everything, or the checks above prove nothing.
    @Test func theCounterSeesAFullRead() throws {
        let stores = try Self.stores()
        let small = try SQLiteWork.of(stores.recent) { _ = try stores.recent.focus.all() }
        let large = try SQLiteWork.of(stores.long) { _ = try stores.long.focus.all() }
        #expect(large > small * 20)
    }

    @Test func windowsOutsideTheirRangeAreRefused() throws {
        let (store, _) = try makeStore()
        #expect(throws: InvalidField.self) { try store.focus.forest(days: 0) }
        #expect(throws: InvalidField.self) { try store.focus.forest(days: 367) }
        #expect(try store.focus.forest().days.isEmpty)
        #expect(try store.focus.forest().older == nil)
    }
}
