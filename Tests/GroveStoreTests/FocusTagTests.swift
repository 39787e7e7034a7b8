import Foundation
import GroveCore
import Testing

@testable import GroveStore

@Suite("Tags: what each session was for, and stats per tag from per-day-per-tag totals")
struct FocusTagTests {
    static let vocabulary = ["essay", "deep work", "Reading", "client-x"]

    /// Tags for the `n`th session, deterministic: none, one or two of the vocabulary.
    static func tags(_ n: Int) -> [String] {
        let count = (n * 7 + n / 5) % 3
        return (try? FocusTags.normalized((0..<count).map { vocabulary[(n + $0 * 3) % vocabulary.count] })) ?? []
    }

    /// The oracle: stats of the sessions carrying the tag, computed from those sessions one by one.
    static func expectTagStatsMatchTheSessions(
        _ db: AppDatabase, now: Date, calendar: ZonedCalendar, _ label: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        // As the store sees them: a session that has run its length is completed.
        let all = try db.focus.all().map { $0.settled(at: now, fallback: calendar) }
        for tag in vocabulary {
            let tagged = all.filter { $0.tags.contains(tag) }
            let expected = ForestStats.from(sessions: tagged, now: now, calendar: calendar)
            #expect(try db.focus.stats(tag: tag) == expected, "\(label): stats of \(tag)", sourceLocation: sourceLocation)
            let daily = try db.focus.dailyTotals(from: LocalDay("2024-01-01")!, to: LocalDay("2025-12-31")!, tag: tag)
            var byDay: [LocalDay: (Int, Int, TimeInterval)] = [:]
            for s in tagged where s.state.isTerminal {
                guard let day = s.endDay else { continue }
                var t = byDay[day] ?? (0, 0, 0)
                if s.state == .completed { t.0 += 1; t.2 += s.duration } else { t.1 += 1 }
                byDay[day] = t
            }
            #expect(
                daily.map { "\($0.day) \($0.trees) \($0.abandoned) \($0.focusTime)" }
                    == byDay.keys.sorted().map { d in "\(d) \(byDay[d]!.0) \(byDay[d]!.1) \(byDay[d]!.2)" },
                "\(label): days of \(tag)", sourceLocation: sourceLocation)
        }
        let summaries = try db.focus.tags()
        #expect(
            Set(summaries.map(\.tag)) == Set(all.filter { $0.state.isTerminal }.flatMap(\.tags)), "\(label): the tags listed",
            sourceLocation: sourceLocation)
    }

    @Test func tagStatsEqualStatsFromTheSessionsAcrossADSTChangeAndATrip() throws {
        // New York springs forward on 2025-03-09; the person flies to Berlin for a few days after.
        let (db, clock) = try makeStore(at: "2025-03-20T15:00:00Z", zone: "America/New_York")
        let ny = try #require(ZonedCalendar(identifier: "America/New_York"))
        let berlin = try #require(ZonedCalendar(identifier: "Europe/Berlin"))
        var history = SyntheticHistory.sessions(count: 600, days: 20, lastDay: LocalDay("2025-03-14")!, calendar: ny)
        for index in history.indices { history[index].tags = Self.tags(index) }
        // Row by row (the per-row triggers)…
        try db.focus.insert(Array(history.prefix(300)))
        // …and in bulk (totals rebuilt at the end): the two paths must agree.
        let bulk = SyntheticHistory.sessions(count: AppDatabase.bulkThreshold, days: 60, lastDay: LocalDay("2025-01-20")!, calendar: berlin)
            .enumerated().map { index, session in
                var s = session; s.tags = Self.tags(index + 1); return s
            }
        try db.focus.insert(bulk)
        try db.focus.insert(Array(history.dropFirst(300)))
        // Sessions across the night of the change, logged in New York, and one in Berlin that ends
        // after midnight there (filed under Berlin's next day).
        try db.focus.log(start: instant("2025-03-09T06:40:00Z"), end: instant("2025-03-09T07:05:00Z"), tags: ["essay", "Reading"])
        try db.focus.log(
            start: instant("2025-03-16T22:50:00Z"), end: instant("2025-03-16T23:15:00Z"),
            timeZone: berlin.timeZone, tags: ["deep work"])
        try Self.expectTagStatsMatchTheSessions(db, now: clock.now, calendar: ny, "after imports and logs")

        // Retags, deletions and a live session that completes move the totals with them.
        let page = try db.focus.sessions(limit: 40)
        for (index, session) in page.enumerated() {
            switch index % 4 {
            case 0: try db.focus.retag(id: session.id, tags: ["client-x", "essay"])
            case 1: try db.focus.retag(id: session.id, tags: [])
            case 2: try db.focus.delete(id: session.id)
            default: break
            }
        }
        try db.focus.start(plannedDuration: 1500, tags: ["essay"])
        clock.advance(by: 600)
        try db.focus.retag(id: try #require(try db.focus.current()).id, tags: ["Reading", "essay"])
        clock.advance(by: 1000)
        try Self.expectTagStatsMatchTheSessions(db, now: clock.now, calendar: ny, "after retags, deletes and a completion")
        #expect(try db.focus.stats(tag: "Reading").todaysTrees == 1)
    }

    @Test func tagsAreCheckedByOneSetOfRules() throws {
        let (db, _) = try makeStore()
        // One tag whatever its case: the first spelling stays.
        #expect(try FocusTags.normalized([" essay ", "Essay", "essay", "deep work"]) == ["deep work", "essay"])
        #expect(try FocusTags.parseList("essay, deep work,,") == ["deep work", "essay"])
        for bad in [[""], ["   "], ["a,b"], [String(repeating: "x", count: 41)], ["tab\there"], (0..<11).map { "t\($0)" }] {
            #expect(throws: InvalidField.self, "\(bad)") { try FocusTags.normalized(bad) }
            #expect(throws: InvalidField.self, "\(bad)") { try db.focus.start(tags: bad) }
        }
        #expect(try db.focus.sessions(limit: 10).isEmpty, "a refused start changes nothing")
        #expect(throws: InvalidField.self) { try db.focus.stats(tag: "") }
        #expect(throws: InvalidField.self) { try db.focus.forest(tag: "a,b") }
        #expect(throws: NotFoundError.self) { try db.focus.retag(id: UUID(), tags: ["essay"]) }
        // A stored session must carry tags in stored form (an import or a synced row).
        var session = FocusSession(id: UUID(), startTime: instant("2025-04-30T09:00:00Z"), timeZoneIdentifier: "UTC", tags: ["b", "a"])
        #expect(throws: InvalidField.self) { try session.validateAsStored() }
        session.tags = ["a", "b"]
        try session.validateAsStored()
    }

    @Test func theForestAndExportsFilterByTag() throws {
        let (db, _) = try makeStore(at: "2025-05-01T12:00:00Z")
        try db.focus.log(start: instant("2025-04-29T09:00:00Z"), end: instant("2025-04-29T09:25:00Z"), tags: ["essay"])
        try db.focus.log(start: instant("2025-04-29T10:00:00Z"), end: instant("2025-04-29T10:25:00Z"), tags: ["code"])
        try db.focus.log(start: instant("2025-04-30T10:00:00Z"), end: instant("2025-04-30T10:25:00Z"), tags: ["code", "essay"])
        let window = try db.focus.forest(tag: "essay")
        #expect(window.days.map { "\($0.day) \($0.trees) \($0.sessions.count)" } == ["2025-04-30 1 1", "2025-04-29 1 1"])
        #expect(try db.focus.forest(tag: "nothing").days.isEmpty)
        var csv: [UInt8] = []
        try db.transfer.export(as: .csv, tag: "code") { csv.append(contentsOf: Array($0)) }
        let lines = String(decoding: csv, as: UTF8.self).split(separator: "\r\n")
        #expect(lines.count == 3 && lines[2].hasSuffix(",\"code,essay\""))
        var json: [UInt8] = []
        try db.transfer.export(as: .json, tag: "essay") { json.append(contentsOf: Array($0)) }
        let export = try GroveExport.makeDecoder().decode(GroveExport.self, from: Data(json))
        #expect(export.focusSessions.map(\.tags) == [["essay"], ["code", "essay"]])
        // The streamed JSON is what JSONEncoder writes for the model, tags included.
        let whole = try db.transfer.export()
        let encoded = try GroveExport.makeEncoder(pretty: false).encode(whole.focusSessions[2])
        #expect(String(decoding: json, as: UTF8.self).contains(String(decoding: encoded, as: UTF8.self)))
        // And it imports back with its tags.
        let (target, _) = try makeStore(at: "2025-05-01T12:00:00Z")
        try target.transfer.importJSON(Data(json))
        #expect(try target.focus.tags().map(\.tag) == ["code", "essay"])
    }
}
