import Foundation
import GRDB
import GroveCore

@testable import GroveStore

func instant(_ string: String) -> Date {
    let f = ISO8601DateFormatter()
    f.formatOptions = [.withInternetDateTime]
    return f.date(from: string)!
}

func day(_ string: String) -> LocalDay { LocalDay(string)! }

/// An in-memory store on a test clock in `zone`.
func makeStore(at start: String = "2025-05-01T09:00:00Z", zone: String = "UTC") throws -> (AppDatabase, TestClock) {
    let clock = TestClock(instant(start))
    let db = try AppDatabase.inMemory(environment: .test(clock: clock, zone: TimeZone(identifier: zone)!))
    return (db, clock)
}

/// A store in a temporary file (for WAL and multi-process tests).
func makeFileStore(at start: String = "2025-05-01T09:00:00Z") throws -> (AppDatabase, TestClock, String) {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("grove-tests-\(UUID().uuidString)")
    let path = dir.appendingPathComponent("grove.sqlite").path
    let clock = TestClock(instant(start))
    return (try AppDatabase.open(path: path, environment: .test(clock: clock)), clock, path)
}

/// Row counts of every table, to prove that refused input changed nothing.
func snapshot(_ db: AppDatabase) throws -> [String: Int] {
    try db.writer.read { d in
        var counts: [String: Int] = [:]
        for table in try String.fetchAll(
            d, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'grdb_%'")
        {
            counts[table] = try Int.fetchOne(d, sql: "SELECT count(*) FROM \(table)")
        }
        counts["checksum"] = try Int.fetchOne(d, sql: "SELECT total(length(id)) + total(duration_ms) + count(*) FROM focus_session").map {
            $0
        }
        return counts
    }
}
