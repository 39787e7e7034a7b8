import Foundation
import GroveCore
import GroveTestSupport
import Testing

@testable import GroveStore

/// A file not in time order imports as the same file sorted does: the same sessions, the same
/// refusals, and about the same work (rows spooled, then written in start order: `ImportSpool`).
@Suite("Importing a file out of time order", .heavy)
struct ImportOrderTests {
    /// `count` back-to-back 20-minute sessions a minute apart from 2025-01-01, as CSV lines.
    static func lines(_ count: Int) -> [String] {
        let formatter = ISO8601DateFormatter()
        let origin = Date(timeIntervalSince1970: 1_735_689_600)
        return (0..<count).map { index in
            let start = origin.addingTimeInterval(Double(index) * 1260)
            return "\(formatter.string(from: start)),\(formatter.string(from: start.addingTimeInterval(1200))),work"
        }
    }

    /// A fixed scramble (no two runs differ): a prime stride through the lines, every one once.
    static func shuffled(_ lines: [String]) -> [String] {
        precondition(lines.count % 7919 != 0)
        return lines.indices.map { lines[($0 * 7919) % lines.count] }
    }

    static func importCSV(_ lines: [String], into db: AppDatabase) throws -> ForeignImportReport {
        let csv = (["Start,End,Tag"] + lines).joined(separator: "\n") + "\n"
        return try db.transfer.importCSV(
            map: try ColumnMap.parse("start=Start,end=End,tag=Tag"), streamingFrom: ForeignImportTests.text(csv))
    }

    static func sessions(_ db: AppDatabase) throws -> [FocusSession] {
        try db.focus.all().sorted { $0.startTime < $1.startTime }
    }

    @Test("the same sessions, ids and per-day totals as the sorted file, and about as many statements")
    func sameResultSameWork() throws {
        let rows = Self.lines(3000)
        let (sortedStore, _) = try makeStore(at: "2026-01-01T00:00:00Z")
        let (shuffledStore, _) = try makeStore(at: "2026-01-01T00:00:00Z")
        var sortedReport: ForeignImportReport?, shuffledReport: ForeignImportReport?
        let inOrder = try SQLiteWork.statements(sortedStore) { sortedReport = try Self.importCSV(rows, into: sortedStore) }
        let outOfOrder = try SQLiteWork.statements(shuffledStore) {
            shuffledReport = try Self.importCSV(Self.shuffled(rows), into: shuffledStore)
        }
        #expect(sortedReport?.imported == 3000 && shuffledReport?.imported == 3000)
        #expect(try Self.sessions(sortedStore) == Self.sessions(shuffledStore))
        #expect(try sortedStore.focus.stats() == shuffledStore.focus.stats())
        // Sorted, rows go in 32 a statement; without the spool every shuffled row was looked up, checked
        // against the store and inserted on its own (four statements a row). The spool is a connection of
        // its own: the store sees the shuffled file as it sees the sorted one.
        #expect(outOfOrder < inOrder + 100, "statements: sorted \(inOrder), shuffled \(outOfOrder)")
    }

    @Test("overlaps, repeats and bad rows are refused as in the sorted file, named by their rows")
    func sameRefusals() throws {
        var rows = Self.lines(200)
        rows.append(rows[10])  // the same session again: already there
        rows.append("2025-01-01T00:05:00Z,2025-01-01T00:15:00Z,work")  // inside the first session
        rows.append("2025-01-01T00:05:00Z,not a time,work")
        rows.append("2025-06-01T10:00:00Z,2025-06-01T09:00:00Z,work")  // ends before it starts
        let (sortedStore, _) = try makeStore(at: "2026-01-01T00:00:00Z")
        let (shuffledStore, _) = try makeStore(at: "2026-01-01T00:00:00Z")
        let inOrder = try Self.importCSV(rows, into: sortedStore)
        // The shuffled file puts the refused rows first: the spool still takes them in start order.
        let refused = Array(rows.suffix(4)), kept = Self.shuffled(Array(rows.dropLast(4)))
        let outOfOrder = try Self.importCSV(refused + kept, into: shuffledStore)
        #expect(inOrder.imported == 200 && outOfOrder.imported == 200)
        #expect(inOrder.alreadyThere == 1 && outOfOrder.alreadyThere == 1)
        #expect(inOrder.skippedCount == 3 && outOfOrder.skippedCount == 3)
        #expect(Set(inOrder.skipped.map(\.reason)) == Set(outOfOrder.skipped.map(\.reason)))
        #expect(outOfOrder.skipped.map(\.row) == outOfOrder.skipped.map(\.row).sorted(), "reported in file order")
        #expect(try Self.sessions(sortedStore) == Self.sessions(shuffledStore))
    }
}

extension ImportOrderTests {
    @Test("a sorted file inside the stored history looks up the store at its stored neighbours, not at every row")
    func intoTheMiddle() throws {
        let (db, _) = try makeStore(at: "2026-01-01T00:00:00Z")
        // Stored before: one session before the file's span, one after, one in a minute's gap inside it.
        let formatter = ISO8601DateFormatter()
        let inside = Date(timeIntervalSince1970: 1_735_689_600 + 999 * 1260 + 1205)
        let setup = try Self.importCSV(
            [
                "2024-12-31T10:00:00Z,2024-12-31T10:20:00Z,work", "2025-06-01T10:00:00Z,2025-06-01T10:20:00Z,work",
                "\(formatter.string(from: inside)),\(formatter.string(from: inside.addingTimeInterval(50))),work",
            ], into: db)
        try #require(setup.imported == 3)
        var report: ForeignImportReport?
        let statements = try SQLiteWork.statements(db) { report = try Self.importCSV(Self.lines(3000), into: db) }
        #expect(report?.imported == 3000 && report?.skippedCount == 0)
        #expect(try db.focus.all().count == 3003)
        // 94 batches of 32 (a savepoint, the insert, its release); a row checked against the store costs
        // four statements, and only the few next to a stored session are.
        #expect(statements < 3000 / 32 * 3 + 100, "statements: \(statements)")
    }
}

extension ImportOrderTests {
    @Test("a shuffled Grove JSON export goes into the store in start order, with the same result as the sorted one")
    func groveJSONOutOfOrder() throws {
        let calendar = try #require(ZonedCalendar(identifier: "UTC"))
        let (source, _) = try makeStore(at: "2025-05-01T20:00:00Z")
        let count = AppDatabase.bulkThreshold + 1_000
        try source.focus.insert(SyntheticHistory.sessions(count: count, days: 300, lastDay: day("2025-05-01"), calendar: calendar))
        let data = try source.transfer.exportJSON()
        let shuffled = try StreamingImportTests.edited(data) { object in
            let list = object["focusSessions"] as? [[String: Any]] ?? []
            object["focusSessions"] = list.indices.map { list[($0 * 7919) % list.count] }
        }
        let (target, _) = try makeStore(at: "2025-05-01T20:00:00Z")
        // The order the rows reach the table: scattered inserts are what the spool exists to avoid.
        try target.writer.write { db in
            try db.execute(
                sql: """
                    CREATE TEMP TABLE inserted (start_time INTEGER);
                    CREATE TEMP TRIGGER inserted_order AFTER INSERT ON main.focus_session BEGIN
                        INSERT INTO inserted VALUES (NEW.start_time);
                    END;
                    """)
        }
        #expect(try target.transfer.importJSON(shuffled).focusSessions == count)
        // Into an empty store the per-day totals are summed as the rows go in, not recounted: the same,
        // shuffled or sorted.
        let (sorted, _) = try makeStore(at: "2025-05-01T20:00:00Z")
        #expect(try sorted.transfer.importJSON(data).focusSessions == count)
        for store in [target, sorted] {
            let totals = try BulkImportTests.totals(store)
            #expect(!totals.stored.isEmpty && totals.stored == totals.counted)
        }
        let order = try target.writer.read { try Int64.fetchAll($0, sql: "SELECT start_time FROM temp.inserted ORDER BY rowid") }
        #expect(order.count == count)
        // The sessions before the first one out of order go in as read, the rest sorted: two runs in start
        // order. Written as read, a shuffled file is thousands of runs.
        let descents = zip(order, order.dropFirst()).filter { $0 > $1 }.count
        #expect(descents <= 1, "runs out of start order: \(descents)")
        #expect(try target.transfer.exportJSON() == data, "the same store as the sorted file makes")
    }
}

extension ImportOrderTests {
    @Test("a shuffled Grove export refuses an id met twice — both spooled, or one written before the spool began — and keeps nothing")
    func repeatedIdsInAShuffledExport() throws {
        let calendar = try #require(ZonedCalendar(identifier: "UTC"))
        let (source, _) = try makeStore(at: "2025-05-01T20:00:00Z", zone: "UTC")
        try source.focus.insert(SyntheticHistory.sessions(count: 300, days: 30, lastDay: day("2025-05-01"), calendar: calendar))
        let data = try source.transfer.exportJSON()
        // A fixed scramble: the first 43 sessions still come in start order, the spool takes the rest.
        func shuffled(_ change: (inout [[String: Any]]) -> Void) throws -> Data {
            try StreamingImportTests.edited(data) { object in
                let list = object["focusSessions"] as? [[String: Any]] ?? []
                var scrambled = list.indices.map { list[($0 * 7) % list.count] }
                change(&scrambled)
                object["focusSessions"] = scrambled
            }
        }
        let (target, _) = try makeStore(at: "2025-05-01T20:00:00Z", zone: "UTC")
        let before = try snapshot(target)
        for (first, second) in [(100, 200), (10, 200)] {
            var repeated = ""
            let file = try shuffled { list in
                repeated = list[first]["id"] as? String ?? ""
                list[second]["id"] = repeated
            }
            let error = #expect(throws: InvalidField.self) { try target.transfer.importJSON(file) }
            #expect(error?.field == "focusSessions")
            #expect(
                error?.message.lowercased() == "focusSessions has id \(repeated) more than once".lowercased(),
                "\(String(describing: error))")
            #expect(try snapshot(target) == before)
        }
        // Without a repeat, the shuffled file goes in whole, as the sorted one does.
        #expect(try target.transfer.importJSON(try shuffled { _ in }).focusSessions == 300)
        #expect(try Self.sessions(target) == Self.sessions(source))
        // Into a store holding sessions (found by a sort of the spooled ids, not as rows go in), the same
        // refusal, and nothing changes.
        let stored = try snapshot(target)
        var repeated = ""
        let file = try shuffled { list in
            repeated = list[150]["id"] as? String ?? ""
            list[250]["id"] = repeated
        }
        let error = #expect(throws: InvalidField.self) { try target.transfer.importJSON(file) }
        #expect(error?.message.lowercased() == "focusSessions has id \(repeated) more than once".lowercased())
        #expect(try snapshot(target) == stored)
    }
}
