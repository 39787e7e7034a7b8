import Foundation
import GRDB
import GroveCore
import GroveTestSupport
import Testing

@testable import GroveStore

/// The bulk path of imports from other tools: rows sent in a batch per statement, per-day totals
/// summed as rows go in, and the file read on a thread of its own.
@Suite(.heavy) struct BulkImportTests {
    /// `count` twenty-minute sessions a minute apart from `first`, as `timew export` writes them;
    /// every third tagged.
    static func timewarrior(count: Int, from first: String) -> [UInt8] {
        let start = instant(first).timeIntervalSince1970
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "UTC")
        format.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let items = (0..<count).map { i -> String in
            let s = start + Double(i) * 1260
            let tags = i % 3 == 0 ? #""odd","deep work""# : ""
            return
                #"{"start":"\#(format.string(from: Date(timeIntervalSince1970: s)))","end":"\#(format.string(from: Date(timeIntervalSince1970: s + 1200)))","tags":[\#(tags)]}"#
        }
        return Array(("[" + items.joined(separator: ",") + "]").utf8)
    }

    /// `count` stored sessions, 25 minutes each, one every hour from `first` (half tagged "odd", every
    /// fifth abandoned).
    static func store(_ db: AppDatabase, count: Int, from first: String) throws {
        let start = instant(first)
        let utc = ZonedCalendar(timeZone: TimeZone(identifier: "UTC") ?? .current)
        let sessions = (0..<count).map { i -> FocusSession in
            let s = start.addingTimeInterval(Double(i) * 3600)
            let abandoned = i % 5 == 4
            return FocusSession(
                id: UUID(), startTime: s, endTime: s.addingTimeInterval(abandoned ? 600 : 1500),
                state: abandoned ? .abandoned : .completed, duration: abandoned ? 600 : 1500, plannedDuration: 1500,
                timeZoneIdentifier: "UTC", endDay: utc.localDay(of: s.addingTimeInterval(abandoned ? 600 : 1500)),
                tags: i % 2 == 0 ? ["odd"] : [])
        }
        try db.focus.insert(sessions)
    }

    /// The per-day tables as stored, and as counted from the sessions themselves.
    static func totals(_ db: AppDatabase) throws -> (stored: [String], counted: [String]) {
        try db.writer.read { db in
            let stored =
                try String.fetchAll(
                    db, sql: "SELECT day || ' ' || trees || ' ' || abandoned || ' ' || focus_ms FROM focus_day ORDER BY day")
                + String.fetchAll(
                    db,
                    sql:
                        "SELECT tag || ' ' || day || ' ' || trees || ' ' || abandoned || ' ' || focus_ms FROM focus_day_tag ORDER BY tag, day"
                )
            let counted =
                try String.fetchAll(
                    db,
                    sql: """
                        SELECT end_day || ' ' || sum(state = 'completed') || ' ' || sum(state = 'abandoned') || ' '
                            || sum(CASE WHEN state = 'completed' THEN duration_ms ELSE 0 END)
                        FROM focus_session WHERE end_day IS NOT NULL GROUP BY end_day ORDER BY end_day
                        """)
                + String.fetchAll(
                    db,
                    sql: """
                        SELECT j.value || ' ' || s.end_day || ' ' || sum(s.state = 'completed') || ' ' || sum(s.state = 'abandoned') || ' '
                            || sum(CASE WHEN s.state = 'completed' THEN s.duration_ms ELSE 0 END)
                        FROM focus_session s, json_each(s.tags) j WHERE s.end_day IS NOT NULL
                        GROUP BY j.value, s.end_day ORDER BY j.value, s.end_day
                        """)
            return (stored, counted)
        }
    }

    @Test func aLargeImportIntoAStoreAddsToItsTotalsAsTheSessionsThemselvesCount() throws {
        let (db, _) = try makeStore(at: "2025-04-02T12:00:00Z")
        // Stored first: sessions on the import's first days too, tagged like some imported ones.
        try Self.store(db, count: 40, from: "2024-12-31T00:00:00Z")
        let report = try db.transfer.importTimewarrior(
            streamingFrom: ForeignImportTests.chunks(Self.timewarrior(count: 6_000, from: "2025-01-02T12:00:00Z"), size: 4096))
        #expect(report.imported == 6_000 && report.skippedCount == 0 && report.tagged == 2_000)
        let (stored, counted) = try Self.totals(db)
        #expect(stored == counted)
        #expect(stored.count > 100)
        let expected = try FocusRunsTests.reference(db), kept = try FocusRunsTests.kept(db)
        #expect(kept.runs == expected.runs && kept.totals == expected.totals && !kept.runs.isEmpty)
        // The triggers are back: a session logged now counts at once.
        try db.focus.log(start: instant("2025-04-02T10:00:00Z"), end: instant("2025-04-02T10:25:00Z"), tags: ["odd"])
        let after = try Self.totals(db)
        #expect(after.stored == after.counted)
    }

    @Test func aLargeImportCostsTheSameWhateverTheStoreAlreadyHolds() throws {
        // Counting SQLite's steps, not timing: recounting every stored session at the end (as the
        // totals were rebuilt before) costs steps in proportion to the store.
        func steps(stored: Int) throws -> Int64 {
            let (db, _) = try makeStore(at: "2025-04-02T12:00:00Z")
            try Self.store(db, count: stored, from: "2020-01-01T00:00:00Z")
            let file = Self.timewarrior(count: 6_000, from: "2025-01-02T12:00:00Z")
            var imported = 0
            let work = try SQLiteWork.of(db) { () throws -> Void in
                imported = try db.transfer.importTimewarrior(streamingFrom: ForeignImportTests.chunks(file, size: 1 << 16)).imported
            }
            #expect(imported == 6_000)
            return work
        }
        let small = try steps(stored: 100), large = try steps(stored: 5_000)
        #expect(large - small < 2_000, "import steps: \(small) with 100 stored, \(large) with 5,000")
    }

    @Test func aBatchHoldingASessionAlreadyStoredTellsItApartFromTheNewOnes() throws {
        // Grove's CSV keeps ids: one of 40 later rows names a session this store holds at another time.
        let (source, _) = try makeStore(at: "2025-04-02T12:00:00Z")
        for i in 0..<40 {
            let start = instant("2025-03-01T08:00:00Z").addingTimeInterval(Double(i) * 3600)
            try source.focus.log(start: start, end: start.addingTimeInterval(1500), tags: i % 2 == 0 ? ["even"] : [])
        }
        let csv = try ForeignImportTests.csv(source)
        let moved = try #require(try source.focus.sessions(limit: 100).sorted { $0.startTime < $1.startTime }.dropFirst(9).first)
        let (target, _) = try makeStore(at: "2025-04-02T12:00:00Z")
        let earlier = instant("2025-02-01T08:00:00Z")
        try target.focus.insert([
            FocusSession(
                id: moved.id, startTime: earlier, endTime: earlier.addingTimeInterval(1500), state: .completed,
                duration: 1500, plannedDuration: 1500, timeZoneIdentifier: "UTC", endDay: day("2025-02-01"))
        ])
        let report = try target.transfer.importGroveCSV(streamingFrom: ForeignImportTests.text(csv))
        #expect(report.imported == 39 && report.alreadyThere == 1 && report.skippedCount == 0)
        // What was there stays where it was.
        #expect(try target.focus.sessions(limit: 100).first { $0.id == moved.id }?.startTime == earlier)
        let (stored, counted) = try Self.totals(target)
        #expect(stored == counted)
    }

    @Test func aLargeGroveExportGoesInWholeOrNotAtAll() throws {
        // Past the bulk threshold: sessions read on the reading thread, written a batch per statement.
        let calendar = try #require(ZonedCalendar(identifier: "America/New_York"))
        let (source, _) = try makeStore(at: "2025-05-01T20:00:00Z", zone: "America/New_York")
        try source.focus.insert(
            SyntheticHistory.sessions(count: AppDatabase.bulkThreshold + 1_000, days: 300, lastDay: day("2025-05-01"), calendar: calendar))
        try source.timers.create(name: "Tea", durationInSeconds: 180, todos: ["Kettle"])
        let data = try source.transfer.exportJSON()
        let (target, _) = try makeStore(at: "2025-05-01T20:00:00Z", zone: "America/New_York")
        let before = try snapshot(target)
        func sessions(_ change: (inout [[String: Any]]) -> Void) throws -> Data {
            try StreamingImportTests.edited(data) { object in
                var list = object["focusSessions"] as? [[String: Any]] ?? []
                change(&list)
                object["focusSessions"] = list
            }
        }
        // Late in the file, inside a batch: a repeated id, a second running session, a broken row.
        let count = AppDatabase.bulkThreshold + 1_000
        #expect(throws: InvalidField.self) { try target.transfer.importJSON(try sessions { $0[count - 3]["id"] = $0[count - 40]["id"] }) }
        #expect(throws: InvalidField.self) {
            try target.transfer.importJSON(
                try sessions { list in
                    for i in [count - 50, count - 45] { list[i]["state"] = "active"; list[i]["endTime"] = nil; list[i]["endDay"] = nil }
                })
        }
        #expect(throws: StoreError.self) { try target.transfer.importJSON(try sessions { $0[count - 2]["startTime"] = "soon" }) }
        #expect(try snapshot(target) == before)
        // And whole: the same sessions and the same totals as the source.
        #expect(try target.transfer.importJSON(data).focusSessions == count)
        #expect(try target.transfer.exportJSON() == data)
        let (stored, counted) = try Self.totals(target)
        #expect(stored == counted)
        // The runs and sums kept for stats (`focus_run`, `focus_total`) follow the rebuilt day totals.
        let expected = try FocusRunsTests.reference(target), kept = try FocusRunsTests.kept(target)
        #expect(kept.runs == expected.runs && kept.totals == expected.totals && !kept.runs.isEmpty)
        // The same file again (every row replaces a stored one), and shuffled into another store (the
        // rows spooled and written sorted at the end): the same totals, runs and sums.
        #expect(try target.transfer.importJSON(data).focusSessions == count)
        let again = try Self.totals(target)
        #expect(again.stored == again.counted && again.stored == stored)
        let shuffled = try sessions { list in
            // A fixed permutation (7,919 is prime, so coprime with the count).
            let n = list.count
            list = (0..<n).map { list[($0 * 7_919) % n] }
        }
        let (other, _) = try makeStore(at: "2025-05-01T20:00:00Z", zone: "America/New_York")
        #expect(try other.transfer.importJSON(shuffled).focusSessions == count)
        let spooled = try Self.totals(other)
        #expect(spooled.stored == spooled.counted && spooled.stored == stored)
        let otherKept = try FocusRunsTests.kept(other)
        #expect(otherKept.runs == kept.runs && otherKept.totals == kept.totals)
    }

    @Test func idsAreWrittenAsFoundationWritesThem() {
        var ids = (0..<500).map { _ in UUID() }
        ids.append(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        ids.append(UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255)))
        ids.append(ImportID.make(start: -5, name: "timewarrior:-5:0"))
        for id in ids { #expect(SessionWriter.text(of: id) == id.uuidString) }
    }
}

/// The reading thread of an import.
@Suite struct PrefetcherTests {
    struct Broken: Error, Equatable {}

    @Test func everyElementArrivesInOrderAndThenTheProducersError() throws {
        var n = 0
        let rows = Prefetcher<Int>(capacity: 2, batchSize: 7) {
            n += 1
            if n > 1_000 { throw Broken() }
            return n
        }
        defer { rows.finish() }
        var seen: [Int] = []
        #expect(throws: Broken.self) {
            while let batch = try rows.next() { seen += batch }
        }
        #expect(seen == Array(1...1_000))
    }

    @Test func theProducerStaysAFewBatchesAheadAndStopsWhenTheConsumerDoes() throws {
        let made = Counter()
        let rows = Prefetcher<Int>(capacity: 3, batchSize: 10) {
            made.increment()
            return 1  // endless
        }
        #expect(try rows.next()?.count == 10)
        // Wait (bounded) until the producer has filled what it may: the batch taken, three waiting and
        // one in its hands. An unbounded producer would be far past it by the time this is seen.
        let deadline = Date().addingTimeInterval(30)
        while made.value < 10 * (3 + 2) && Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
        rows.finish()
        #expect(made.value == 10 * (3 + 2))
        #expect(try rows.next() == nil)
    }

    @Test func anEmptySourceEndsAtOnce() throws {
        let rows = Prefetcher<Int> { nil }
        defer { rows.finish() }
        #expect(try rows.next() == nil)
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func increment() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }
}
