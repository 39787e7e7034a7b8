import Foundation
import GroveCore
import Testing

@testable import GroveStore

@Suite("Importing other tools' sessions: timewarrior, any CSV, Grove's own CSV")
struct ForeignImportTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
        "Fixtures")

    /// Feeds `bytes` in small chunks, so that records and values straddle chunk ends.
    static func chunks(_ bytes: [UInt8], size: Int = 7) -> () throws -> [UInt8]? {
        var offset = 0
        return {
            guard offset < bytes.count else { return nil }
            defer { offset += size }
            return Array(bytes[offset..<min(bytes.count, offset + size)])
        }
    }

    static func text(_ string: String) -> () throws -> [UInt8]? { chunks(Array(string.utf8)) }

    @Test func aRealTimewarriorExportImportsOnceWithEverySkipExplained() throws {
        let (db, _) = try makeStore(at: "2025-04-02T12:00:00Z", zone: "Europe/Berlin")
        let file = try Data(contentsOf: Self.fixtures.appendingPathComponent("timewarrior/export.json"))
        let report = try db.transfer.importTimewarrior(streamingFrom: Self.chunks(Array(file)))
        #expect(report.imported == 6 && report.alreadyThere == 0 && report.skippedCount == 2)
        #expect(report.skipped.map(\.row) == [6, 8])
        #expect(report.skipped[0].reason == "Session length must be at most 4 hours")
        #expect(report.skipped[1].reason.hasPrefix("an open interval (still running)"))
        #expect(report.tagged == 5)
        // Tags kept: per tag and day, from the per-day-per-tag totals.
        let essay = try db.focus.dailyTotals(from: day("2025-03-28"), to: day("2025-03-31"), tag: "essay")
        #expect(essay.map { "\($0.day) \($0.trees) \(Int($0.focusTime / 60))" } == ["2025-03-28 2 50", "2025-03-30 1 25"])
        #expect(try db.focus.tags().map(\.tag) == ["essay", "night", "deep work", "reading"])
        #expect(try db.focus.stats(tag: "deep work").totalFocusTime == 50 * 60)
        // Filed under the Berlin day each ended on; the night across the change is 50 real minutes.
        let days = try db.focus.dailyTotals(from: day("2025-03-28"), to: day("2025-03-31"))
        #expect(
            days.map { "\($0.day) \($0.trees) \(Int($0.focusTime / 60))" } == ["2025-03-28 3 100", "2025-03-30 2 75", "2025-03-31 1 25"])
        // The same file again: nothing new, nothing changed.
        let before = try snapshot(db)
        let again = try db.transfer.importTimewarrior(streamingFrom: Self.chunks(Array(file)))
        #expect(again.imported == 0 && again.alreadyThere == 6 && again.skippedCount == 2)
        #expect(try snapshot(db) == before)
    }

    @Test func anyCSVWithAColumnMapWallClockTimesInTheGivenZone() throws {
        let (db, _) = try makeStore(at: "2025-04-02T12:00:00Z", zone: "UTC")
        let csv = """
            Start,End,Tag,Done,Note
            2025-03-30 01:30,2025-03-30 03:20,night,true,"across the change, in Berlin"
            2025-03-31T08:00:00+02:00,2025-03-31T08:25:00+02:00,,yes,
            2025-03-31 10:00,2025-03-31 10:10,,false,"given up"
            2025-03-31 11:00,2025-03-31 10:00,,true,ends before it starts
            not a time,2025-03-31 10:00,,true,
            2025-03-31 08:10,2025-03-31 08:20,,true,overlaps the second row

            """
        let map = try ColumnMap.parse("start=Start,end=End,tag=Tag,completed=Done")
        let report = try db.transfer.importCSV(map: map, zone: TimeZone(identifier: "Europe/Berlin"), streamingFrom: Self.text(csv))
        #expect(report.imported == 3 && report.skippedCount == 3 && report.tagged == 1)
        #expect(report.skipped.map(\.row) == [4, 5, 6])
        #expect(report.skipped[0].reason == "A session must end after it starts")
        #expect(report.skipped[2].reason.hasPrefix("This time overlaps the session recorded at"))
        let sessions = try db.focus.sessions(limit: 10).sorted { $0.startTime < $1.startTime }
        #expect(
            sessions.map(\.startTime) == [
                instant("2025-03-30T00:30:00Z"), instant("2025-03-31T06:00:00Z"), instant("2025-03-31T08:00:00Z"),
            ])
        #expect(sessions.map(\.duration) == [3000, 1500, 600] && sessions.map(\.state) == [.completed, .completed, .abandoned])
        #expect(sessions.map(\.tags) == [["night"], [], []])
        // Lived in Berlin: filed under Berlin's days, in Berlin's zone.
        #expect(sessions.map(\.timeZoneIdentifier) == ["Europe/Berlin", "Europe/Berlin", "Europe/Berlin"])
        #expect(sessions.map { $0.endDay?.description } == ["2025-03-30", "2025-03-31", "2025-03-31"])
        // Durations instead of ends.
        let durations = "When,Length\n2025-04-01 09:00,25:00\n2025-04-01 10:00,900\n"
        let more = try db.transfer.importCSV(
            map: try ColumnMap.parse("start=When,duration=Length"), zone: TimeZone(identifier: "UTC"), streamingFrom: Self.text(durations))
        #expect(more.imported == 2)
    }

    /// New York's fall-back night: 01:00–02:00 happens twice, once as EDT and once as EST. Two real
    /// sessions, an hour apart, both kept.
    @Test func forestsRepeatedHourIsReadOnThePassItsAbbreviationNames() throws {
        let (db, _) = try makeStore(at: "2024-11-10T12:00:00Z", zone: "America/New_York")
        let csv = """
            Start Time,End Time,Tag,Note,Tree Type,Is Success
            Sun Nov 03 01:10:00 EDT 2024,Sun Nov 03 01:40:00 EDT 2024,Study,,Cedar,True
            Sun Nov 03 01:10:00 EST 2024,Sun Nov 03 01:40:00 EST 2024,Study,,Cedar,True

            """
        let report = try db.transfer.importCSV(map: .forest, format: .forest, streamingFrom: Self.chunks(Array(csv.utf8)))
        #expect(report.imported == 2 && report.skippedCount == 0)
        let starts = try db.focus.sessions(limit: 10).map(\.startTime).sorted()
        #expect(starts == ["2024-11-03T05:10:00Z", "2024-11-03T06:10:00Z"].map(instant))
    }

    @Test func forestsCSVExportWithItsJavaInstantsTagsAndWitheredTrees() throws {
        let (db, _) = try makeStore(at: "2025-04-02T12:00:00Z", zone: "Europe/Berlin")
        let file = try Data(contentsOf: Self.fixtures.appendingPathComponent("forest/forest-export.csv"))
        let report = try db.transfer.importCSV(map: .forest, format: .forest, streamingFrom: Self.chunks(Array(file)))
        #expect(report.format == .forest && report.imported == 5 && report.skippedCount == 1 && report.tagged == 4)
        #expect(report.skipped.map(\.row) == [6])
        let sessions = try db.focus.sessions(limit: 10).sorted { $0.startTime < $1.startTime }
        #expect(
            sessions.map(\.startTime)
                == [
                    "2025-03-29T08:00:00Z", "2025-03-29T08:30:00Z", "2025-03-30T00:30:00Z", "2025-03-31T08:00:00Z",
                    "2025-03-31T11:00:00Z",
                ].map(instant))
        #expect(sessions.map(\.state) == [.completed, .abandoned, .completed, .completed, .completed])
        #expect(sessions.map(\.tags) == [["Study"], ["Study"], ["Work"], [], ["Work", "deep"]])
        // Fifty real minutes across Berlin's spring-forward night.
        #expect(sessions[2].duration == 3000 && sessions[2].endDay == day("2025-03-30"))
        #expect(try db.focus.stats(tag: "Study").abandonedCount == 1)
        #expect(try db.transfer.importCSV(map: .forest, format: .forest, streamingFrom: Self.chunks(Array(file))).alreadyThere == 5)
        // Java's instants on their own.
        let utc = try #require(ZonedCalendar(identifier: "UTC"))
        #expect(AppDatabase.javaInstant("Sat Jun 15 08:07:54 GMT+01:00 2019", calendar: utc) == instant("2019-06-15T07:07:54Z"))
        #expect(AppDatabase.javaInstant("Sat Jun 15 08:07:54 GMT-05:30 2019", calendar: utc) == instant("2019-06-15T13:37:54Z"))
        #expect(AppDatabase.javaInstant("Sat Jun 15 08:07:54 QQQ 2019", calendar: utc) == instant("2019-06-15T08:07:54Z"))
        // An abbreviation is an offset: the fall-back night's repeated hour read on the pass it names.
        #expect(AppDatabase.javaInstant("Sun Nov 03 01:30:00 EDT 2024", calendar: utc) == instant("2024-11-03T05:30:00Z"))
        #expect(AppDatabase.javaInstant("Sun Nov 03 01:30:00 EST 2024", calendar: utc) == instant("2024-11-03T06:30:00Z"))
        #expect(AppDatabase.javaInstant("Sun Oct 27 02:30:00 CEST 2024", calendar: utc) == instant("2024-10-27T00:30:00Z"))
        #expect(AppDatabase.javaInstant("Sun Oct 27 02:30:00 CET 2024", calendar: utc) == instant("2024-10-27T01:30:00Z"))
        #expect(AppDatabase.javaInstant("Mon Jul 01 09:00:00 PDT 2024", calendar: utc) == instant("2024-07-01T16:00:00Z"))
        #expect(AppDatabase.javaInstant("Mon Jan 15 09:00:00 PST 2024", calendar: utc) == instant("2024-01-15T17:00:00Z"))
        for bad in [
            "Sat Jun 31 08:07:54 GMT 2019", "Sat Foo 15 08:07:54 GMT 2019", "Sat Jun 15 08:61:54 GMT 2019",
            "Sat Jun 15 08:07:54 GMT+1x:00 2019", "2019",
        ] {
            #expect(AppDatabase.javaInstant(bad, calendar: utc) == nil, "\(bad)")
        }
    }

    @Test func overlapsAreFoundWhereverTheyAreAndOldImportsAreRecognised() throws {
        let (db, _) = try makeStore(at: "2025-04-02T12:00:00Z")
        // Stored: one session in the middle of the file's span, imported by a Grove whose ids were uuid5.
        let legacy = IntentionID.uuid5(
            namespace: AppDatabase.importNamespace,
            name: "timewarrior:\(instant("2025-03-10T10:00:00Z").groveMillis):\(instant("2025-03-10T10:25:00Z").groveMillis)")
        try db.focus.insert([
            FocusSession(
                id: legacy, startTime: instant("2025-03-10T10:00:00Z"), endTime: instant("2025-03-10T10:25:00Z"),
                state: .completed, duration: 1500, plannedDuration: 1500, timeZoneIdentifier: "UTC",
                endDay: day("2025-03-10"))
        ])
        let file =
            #"[{"start":"20250301T090000Z","end":"20250301T092500Z"},"#  // before everything stored: no lookups
            + #"{"start":"20250301T091000Z","end":"20250301T093500Z"},"#  // overlaps the row before it
            + #"{"start":"20250310T100000Z","end":"20250310T102500Z"},"#  // the stored one, by its old id
            + #"{"start":"20250310T101000Z","end":"20250310T103000Z"},"#  // overlaps the stored one
            + #"{"start":"20250320T090000Z","end":"20250320T092500Z"},"#  // after everything stored
            + #"{"start":"20250305T090000Z","end":"20250305T092500Z"},"#  // out of order: checked against the store
            + #"{"start":"20250320T091500Z","end":"20250320T093000Z"}]"#  // overlaps an imported row, found out of order
        let report = try db.transfer.importTimewarrior(streamingFrom: Self.text(file))
        #expect(report.imported == 3 && report.alreadyThere == 1 && report.skippedCount == 3)
        #expect(report.skipped.map(\.row) == [2, 4, 7])
        #expect(report.skipped.allSatisfy { $0.reason.hasPrefix("This time overlaps the session recorded at") })
        // Imported ids follow the start: the id index takes a history in order.
        let ids = try db.focus.sessions(limit: 10).filter { $0.id != legacy }.sorted { $0.startTime < $1.startTime }.map(\.id.uuidString)
        #expect(ids == ids.sorted() && ids.count == 3)
        let again = try db.transfer.importTimewarrior(streamingFrom: Self.text(file))
        #expect(again.imported == 0 && again.alreadyThere == 4 && again.skippedCount == 3)
    }

    @Test func aLargeImportRebuildsThePerDayTotalsItSetAside() throws {
        let (db, _) = try makeStore(at: "2025-04-02T12:00:00Z")
        // 6,000 twenty-minute sessions, a minute apart (past the bulk threshold), in timewarrior's form.
        let start = instant("2025-01-01T00:00:00Z").timeIntervalSince1970
        func stamp(_ t: TimeInterval) -> String {
            let f = DateFormatter()
            f.locale = Locale(identifier: "en_US_POSIX")
            f.timeZone = TimeZone(identifier: "UTC")
            f.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
            return f.string(from: Date(timeIntervalSince1970: t))
        }
        let items = (0..<6_000).map { i -> String in
            let s = start + Double(i) * 1260
            return #"{"start":"\#(stamp(s))","end":"\#(stamp(s + 1200))","tags":[\#(i % 3 == 0 ? #""odd","deep work""# : "")]}"#
        }
        let report = try db.transfer.importTimewarrior(
            streamingFrom: Self.chunks(Array(("[" + items.joined(separator: ",") + "]").utf8), size: 4096))
        #expect(report.imported == 6_000 && report.skippedCount == 0)
        let totals = try db.focus.dailyTotals(from: day("2025-01-01"), to: day("2025-04-01"))
        #expect(totals.reduce(0) { $0 + $1.trees } == 6_000)
        #expect(totals.reduce(0.0) { $0 + $1.focusTime } == 6_000 * 1200)
        // The per-tag totals were rebuilt too.
        #expect(try db.focus.tags().map { "\($0.tag) \($0.trees)" }.sorted() == ["deep work 2000", "odd 2000"])
        #expect(try db.focus.stats(tag: "odd").totalFocusTime == 2_000 * 1_200)
        // The per-row triggers are back: a session logged now counts at once.
        try db.focus.log(start: instant("2025-04-02T10:00:00Z"), end: instant("2025-04-02T10:25:00Z"))
        #expect(try db.focus.dailyTotals(from: day("2025-04-02"), to: day("2025-04-02")).first?.trees == 1)
    }

    @Test func badMapsAndBrokenFilesAreRefusedWholeAndChangeNothing() throws {
        let (db, _) = try makeStore(at: "2025-04-02T12:00:00Z")
        let before = try snapshot(db)
        for bad in ["", "start=A", "end=B", "start=A,start=B,end=C", "begin=A,end=B", "start=,end=B"] {
            #expect(throws: InvalidField.self, "\(bad)") { try ColumnMap.parse(bad) }
        }
        #expect(throws: InvalidField.self) {
            try db.transfer.importCSV(map: ColumnMap(start: "Start", end: "End"), streamingFrom: Self.text("When,Until\n"))
        }
        #expect(throws: StoreError.self) {
            try db.transfer.importCSV(
                map: ColumnMap(start: "A", end: "B"), streamingFrom: Self.text("A,B\n\"2025-03-31 10:00,2025-03-31 10:10\n"))
        }
        #expect(throws: StoreError.self) { try db.transfer.importTimewarrior(streamingFrom: Self.text(#"{"start":"20250101T000000Z"}"#)) }
        #expect(throws: StoreError.self) {
            try db.transfer.importTimewarrior(streamingFrom: Self.text(#"[{"start":"20250101T000000Z","end":"20250101T002500Z"}"#))
        }
        #expect(throws: StoreError.self) { try db.transfer.importGroveCSV(streamingFrom: Self.text("Start,End\n")) }
        #expect(try snapshot(db) == before)
        // A valid but empty export is nothing to do.
        #expect(try db.transfer.importTimewarrior(streamingFrom: Self.text("[]")).imported == 0)
    }

    @Test func grovesOwnCSVRoundTripsByteForByte() throws {
        let (source, clock) = try makeStore(at: "2025-04-02T12:00:00Z", zone: "Europe/Berlin")
        try source.focus.log(
            start: instant("2025-03-30T00:30:00Z"), end: instant("2025-03-30T01:20:00Z"), tags: ["essay", " deep work "])
        try source.focus.log(
            start: instant("2025-03-31T08:00:00Z"), end: instant("2025-03-31T08:40:00Z"),
            pauses: [.init(start: instant("2025-03-31T08:10:00Z"), end: instant("2025-03-31T08:15:00Z"))])
        try source.focus.log(
            start: instant("2025-04-01T08:00:00Z"), end: instant("2025-04-01T08:05:00Z"), abandoned: true, plannedDuration: 1500,
            tags: ["Quote \"this\""])
        try source.focus.start(plannedDuration: 1500)
        clock.advance(by: 60)
        let exported = try Self.csv(source)

        let (target, _) = try makeStore(at: "2025-04-02T12:00:00Z", zone: "UTC")
        let report = try target.transfer.importGroveCSV(streamingFrom: Self.text(exported))
        #expect(report.imported == 3 && report.skippedCount == 1)
        #expect(report.skipped.first?.reason == "a session still running or paused: finish it where it runs, then export again")
        let reexported = try Self.csv(target)
        #expect(reexported == exported.split(separator: "\r\n").filter { !$0.contains(",active,") }.map { $0 + "\r\n" }.joined())
        #expect(try target.transfer.importGroveCSV(streamingFrom: Self.text(exported)).alreadyThere == 3)
        #expect(exported.contains(#","deep work,essay"\#r\#n"#))
        #expect(try target.focus.tags().map(\.tag).sorted() == ["Quote \"this\"", "deep work", "essay"])
        // A CSV written before tags (one column fewer) still reads.
        let old = exported.split(separator: "\r\n").map { line in
            line.hasPrefix("id,") ? String(line.dropLast(",tags".count)) : String(line)
        }
        let legacy =
            old.filter { !$0.contains(",active,") && !$0.contains("essay") && !$0.contains("Quote") }.joined(separator: "\r\n") + "\r\n"
        let (third, _) = try makeStore(at: "2025-04-02T12:00:00Z", zone: "UTC")
        #expect(
            try third.transfer.importGroveCSV(streamingFrom: Self.text(legacy.replacingOccurrences(of: ",\r\n", with: "\r\n"))).imported
                == 1)
    }

    static func csv(_ db: AppDatabase) throws -> String {
        var out: [UInt8] = []
        try db.transfer.export(as: .csv) { out.append(contentsOf: Array($0)) }
        return String(decoding: out, as: UTF8.self)
    }
}
