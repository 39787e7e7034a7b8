import Foundation
import GroveCore
import GroveTestSupport
import Testing

@testable import GroveStore

/// Imports read the file a chunk at a time: whatever the chunk boundaries, the same document gives
/// the same store, and a bad item anywhere leaves the store as it was.
@Suite("Streamed import: any chunking, all or nothing", .heavy)
struct StreamingImportTests {
    static func source() throws -> (AppDatabase, Data) {
        let calendar = ZonedCalendar(identifier: "America/New_York")!
        let (db, _) = try makeStore(at: "2025-05-01T20:00:00Z", zone: "America/New_York")
        try db.focus.insert(SyntheticHistory.sessions(count: 40, days: 10, lastDay: LocalDay("2025-05-01")!, calendar: calendar))
        try db.timers.create(name: "Tea \"green\" \\ 🍵", durationInSeconds: 180, todos: ["Kettle", "Cup"])
        try db.intentions.set("Read, slowly: \u{1}é👨‍👩‍👧‍👦", scope: .week)
        return (db, try db.transfer.exportJSON())
    }

    /// Feeds `data` in chunks of `size` bytes.
    static func chunks(_ data: Data, _ size: Int) -> () throws -> [UInt8]? {
        var offset = 0
        let bytes = Array(data)
        return {
            guard offset < bytes.count else { return nil }
            defer { offset += size }
            return Array(bytes[offset..<min(bytes.count, offset + size)])
        }
    }

    @Test(arguments: [1, 2, 3, 7, 64, 4096, 1 << 20])
    func everyChunkSizeReadsTheSameDocument(size: Int) throws {
        let (source, data) = try Self.source()
        let (target, _) = try makeStore(at: "2025-05-01T20:00:00Z", zone: "America/New_York")
        let summary = try target.transfer.importJSON(streamingFrom: Self.chunks(data, size))
        #expect(summary.focusSessions == 40 && summary.timers == 1 && summary.intentions == 1)
        #expect(try target.focus.all() == source.focus.all())
        #expect(try target.timers.all().map(\.name) == ["Tea \"green\" \\ 🍵"])
        #expect(try target.intentions.all().map(\.text) == ["Read, slowly: \u{1}é👨‍👩‍👧‍👦"])
        #expect(try target.focus.stats() == source.focus.stats())
    }

    static func edited(_ data: Data, _ change: (inout [String: Any]) -> Void) throws -> Data {
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        change(&object)
        return try JSONSerialization.data(withJSONObject: object)
    }

    @Test func aBadSessionAnywhereChangesNothing() throws {
        let (_, data) = try Self.source()
        let (target, _) = try makeStore(at: "2025-05-01T20:00:00Z", zone: "America/New_York")
        let before = try snapshot(target)
        func sessions(_ change: (inout [[String: Any]]) -> Void) throws -> Data {
            try Self.edited(data) { object in
                var list = object["focusSessions"] as? [[String: Any]] ?? []
                change(&list)
                object["focusSessions"] = list
            }
        }
        let duplicate = try sessions { $0.append($0[3]) }
        #expect(throws: InvalidField.self) { try target.transfer.importJSON(duplicate) }
        let twoOpen = try sessions { list in
            for i in [5, 30] { list[i]["state"] = "active"; list[i]["endTime"] = nil; list[i]["endDay"] = nil }
        }
        #expect(throws: InvalidField.self) { try target.transfer.importJSON(twoOpen) }
        let wrongDay = try sessions { $0[39]["endDay"] = "1999-01-01" }
        #expect(throws: InvalidField.self) { try target.transfer.importJSON(wrongDay) }
        let missing = try sessions { $0[20]["startTime"] = nil }
        #expect(throws: StoreError.self) { try target.transfer.importJSON(missing) }
        let notAnInstant = try sessions { $0[0]["createdAt"] = "yesterday" }
        #expect(throws: StoreError.self) { try target.transfer.importJSON(notAnInstant) }
        // A late failure (after every session was written) rolls everything back too.
        let badTimer = try Self.edited(data) { object in object["timers"] = [["bogus": true]] }
        #expect(throws: StoreError.self) { try target.transfer.importJSON(badTimer) }
        for text in [
            "", "{", "[]", #"{"focusSessions": [{}"#, String(decoding: data, as: UTF8.self) + "{}",
            #"{"focusSessions": [], "focusSessions": []}"#,
        ] {
            #expect(throws: StoreError.self, "\(text.prefix(40))") { try target.transfer.importJSON(Data(text.utf8)) }
        }
        #expect(try snapshot(target) == before)
    }

    @Test func unknownFieldsAreSkippedAsJSONDecoderSkipsThem() throws {
        let (source, data) = try Self.source()
        let extra = try Self.edited(data) { object in
            var list = object["focusSessions"] as? [[String: Any]] ?? []
            list[0]["note"] = ["nested": [1, 2, ["deep": "x"]]]
            object["focusSessions"] = list
            object["comment"] = "written by hand"
        }
        let (target, _) = try makeStore(at: "2025-05-01T20:00:00Z", zone: "America/New_York")
        try target.transfer.importJSON(extra)
        #expect(try target.focus.all() == source.focus.all())
    }

    /// A string is read straight from the chunk when it lies whole in it, else byte by byte: a bad one
    /// is refused with the same words and offset either way.
    @Test func aBadStringIsSaidTheSameWhateverTheChunks() throws {
        let (_, data) = try Self.source()
        let text = String(decoding: data, as: UTF8.self)
        let marker = try #require(text.range(of: #""timeZoneIdentifier":""#))
        let at = text.utf8.distance(from: text.utf8.startIndex, to: marker.upperBound.samePosition(in: text.utf8) ?? text.utf8.endIndex)
        for bad in [[0xFF, 0xFE], [0x01], [0xC3]] as [[UInt8]] {
            var bytes = Array(data)
            bytes.insert(contentsOf: bad, at: at)
            var said: Set<String> = []
            for size in [1, 2, 5, 64, 1 << 20] {
                let (target, _) = try makeStore(at: "2025-05-01T20:00:00Z", zone: "America/New_York")
                do {
                    try target.transfer.importJSON(streamingFrom: Self.chunks(Data(bytes), size))
                    Issue.record("\(bad) was imported with chunks of \(size)")
                } catch let error as StoreError {
                    said.insert("\(error)")
                }
                #expect(try target.focus.all().isEmpty)
            }
            #expect(said.count == 1, "\(bad): \(said)")
            #expect(said.first?.contains(bad == [0x01] ? "a control character" : "not UTF-8") == true, "\(said)")
        }
    }
}
