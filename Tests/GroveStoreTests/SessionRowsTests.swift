import Foundation
import GRDB
import GroveCore
import PropertyBased
import Testing

@testable import GroveStore

/// The export's fast path writes sessions from their columns; it must write exactly what the model
/// through `JSONEncoder` (and the CSV rules) would, for any values the columns can hold.
@Suite("Exported sessions: the column path writes what the model would")
struct SessionRowsTests {
    static let zones = [
        "UTC", "America/New_York", "Etc/GMT+5", "Zone \"quoted\"", "tab\there", "back\\slash", "é/ü", "line\nbreak", "\u{1}\u{1F}",
    ]
    static let states = SessionState.allCases

    /// A row as the store holds it, and the model it stands for.
    static func sample(_ numbers: [Int64], zone: Int, state: Int, flags: Int) throws -> (Row, FocusSession) {
        let start = numbers[0] % 4_102_444_800_000  // up to 2100, either side of 1970
        let end: Int64? = flags & 1 == 0 ? start + abs(numbers[1] % 90_000_000) : nil
        let pausedAt: Int64? = flags & 2 == 0 ? nil : start + abs(numbers[2] % 1_000_000)
        let duration = abs(numbers[3] % 14_400_001), paused = abs(numbers[4] % 31_622_400_001), planned = 1 + abs(numbers[5] % 14_400_000)
        let id = UUID(
            uuidString: String(
                format: "%08X-0000-4000-8000-%012X", UInt32(truncatingIfNeeded: numbers[6]), UInt64(abs(numbers[7] % 0xFFFF_FFFF_FFFF))))!
        let endDay: String? = flags & 4 == 0 ? LocalDay(dayNumber: Int((end ?? start) / 86_400_000)).description : nil
        let uncertain = flags & 8 != 0
        // Tags as a synced row may hold them: spaced and escaped differently from what Grove writes.
        let tags: [String] = flags & 16 == 0 ? [] : ["deep work", "quote \"q\"", "é/ü"]
        let tagsText: String? = tags.isEmpty ? nil : #"[ "deep work", "quote \"q\"" , "\u00e9\/\u00fc"]"#
        let values: [(any DatabaseValueConvertible)?] = [
            id.uuidString, start, end, states[state].rawValue, duration, paused, planned, pausedAt, start,
            zones[zone], endDay, uncertain ? 1 : 0, tagsText, flags & 32 == 0 ? nil : 1,
        ]
        let row = try DatabaseQueue(configuration: AppDatabase.configuration()).read { db in
            try Row.fetchOne(
                db, sql: "SELECT " + Array(repeating: "?", count: 14).joined(separator: ", "), arguments: StatementArguments(values))
        }
        let session = FocusSession(
            id: id, startTime: Date(groveMillis: start), endTime: end.map(Date.init(groveMillis:)), state: states[state],
            duration: TimeInterval(groveMillis: duration), pausedDuration: TimeInterval(groveMillis: paused),
            createdAt: Date(groveMillis: start),
            plannedDuration: TimeInterval(groveMillis: planned), pausedAt: pausedAt.map(Date.init(groveMillis:)),
            timeZoneIdentifier: zones[zone],
            endDay: endDay.flatMap(LocalDay.init), clockUncertain: uncertain, tags: tags, openEnded: flags & 32 != 0)
        return (try #require(row), session)
    }

    @Test func jsonAndCSVMatchTheModelPath() async throws {
        let encoder = GroveExport.makeEncoder(pretty: false)
        let numbers = Gen.int64(in: Int64.min / 4...Int64.max / 4).array(of: 8)
        await propertyCheck(count: 300, input: numbers, Gen.int(in: 0...(Self.zones.count - 1)), Gen.int(in: 0...3), Gen.int(in: 0...63)) {
            numbers, zone, state, flags in
            let (row, s) = try Self.sample(numbers, zone: zone, state: state, flags: flags)
            var json: [UInt8] = []
            SessionRows.appendJSON(row, to: &json)
            #expect(String(decoding: json, as: UTF8.self) == String(decoding: try encoder.encode(s), as: UTF8.self))
            var csv: [UInt8] = []
            SessionRows.appendCSV(row, to: &csv)
            let fields = [
                s.id.uuidString, GroveExport.formatInstant(s.startTime), s.endTime.map(GroveExport.formatInstant) ?? "",
                s.state.rawValue, AppDatabase.seconds(s.duration), AppDatabase.seconds(s.pausedDuration),
                AppDatabase.seconds(s.plannedDuration), s.timeZoneIdentifier, s.endDay?.description ?? "", s.tags.joined(separator: ","),
            ]
            #expect(String(decoding: csv, as: UTF8.self) == fields.map(AppDatabase.csvField).joined(separator: ",") + "\r\n")
        }
    }

    /// A streamed export of many sessions reads back whole, in order.
    @Test func aStreamedExportOfManySessionsImportsBack() throws {
        let calendar = ZonedCalendar(identifier: "Europe/Lisbon")!
        let sessions = SyntheticHistory.sessions(count: 3_000, days: 400, lastDay: LocalDay("2025-05-01")!, calendar: calendar)
        let (source, _) = try makeStore(at: "2025-05-01T20:00:00Z")
        try source.focus.insert(sessions)
        var chunks = 0
        var data = Data()
        try source.transfer.export(as: .json) { chunk in
            chunks += 1
            #expect(chunk.count <= 2 * ExportStream.chunkSize)
            data.append(chunk)
        }
        #expect(chunks > 1, "handed on in pieces")
        let (target, _) = try makeStore(at: "2025-05-01T20:00:00Z")
        try target.transfer.importJSON(data)
        #expect(try target.focus.all() == source.focus.all())
        #expect(try target.focus.stats() == source.focus.stats())
    }
}
