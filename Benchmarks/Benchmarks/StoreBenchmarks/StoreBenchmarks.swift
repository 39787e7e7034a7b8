import Benchmark
import Foundation
import GroveCore
import GroveStore

/// ForestStats + both streaks over 1k, 100k and 1M stored sessions, and importing 100k sessions.
/// Goals (issue #2): ≤ 1 ms at 1k and ≤ 10 ms at 1M; import ≥ 100,000 sessions/s.
let benchmarks: @Sendable () -> Void = {
    let zone = TimeZone(identifier: "America/New_York")!
    let calendar = ZonedCalendar(timeZone: zone)
    let now = Date(timeIntervalSince1970: 1_763_726_400)  // 2025-11-21T12:00:00Z
    let environment = GroveEnvironment(now: { now }, uuid: { UUID() }, systemTimeZone: { zone })

    /// A database with `count` sessions, built once and kept in /tmp between runs.
    func database(sessions count: Int) throws -> AppDatabase {
        let path = NSTemporaryDirectory() + "grove-bench-\(count).sqlite"
        let db = try AppDatabase.open(path: path, environment: environment)
        let stored = try db.forestStats().totalSessions
        if stored != count {
            try? FileManager.default.removeItem(atPath: path)
            for suffix in ["-wal", "-shm", ".lock"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            let fresh = try AppDatabase.open(path: path, environment: environment)
            let days = min(3650, max(30, count / 2))
            let sessions = SyntheticHistory.sessions(count: count, days: days, lastDay: calendar.localDay(of: now), calendar: calendar)
            for chunk in stride(from: 0, to: sessions.count, by: 100_000) {
                try fresh.insertFocusSessions(Array(sessions[chunk..<min(chunk + 100_000, sessions.count)]))
            }
            return fresh
        }
        return db
    }

    let statsConfiguration = Benchmark.Configuration(metrics: [.wallClock, .throughput, .mallocCountTotal], maxDuration: .seconds(3), maxIterations: 2000)
    for count in [1_000, 100_000, 1_000_000] {
        Benchmark("ForestStats + streaks, \(count) sessions", configuration: statsConfiguration) { benchmark, db in
            for _ in benchmark.scaledIterations { blackHole(try db.forestStats()) }
        } setup: {
            try database(sessions: count)
        }
    }

    // Paths that answer about a window or a page: flat from 1k to 1M sessions (issue #9).
    let windowConfiguration = Benchmark.Configuration(metrics: [.wallClock, .throughput, .mallocCountTotal], maxDuration: .seconds(3), maxIterations: 2000)
    for count in [1_000, 1_000_000] {
        Benchmark("Forest window (14 days), \(count) sessions", configuration: windowConfiguration) { benchmark, db in
            for _ in benchmark.scaledIterations { blackHole(try db.forestWindow()) }
        } setup: {
            try database(sessions: count)
        }
        Benchmark("A page of 100 sessions, \(count) sessions", configuration: windowConfiguration) { benchmark, db in
            for _ in benchmark.scaledIterations { blackHole(try db.focusSessions(limit: 100)) }
        } setup: {
            try database(sessions: count)
        }
    }

    // Streaming export: bytes handed on in 64 KiB chunks, so memory stays at one chunk and one page.
    let exportConfiguration = Benchmark.Configuration(metrics: [.wallClock, .peakMemoryResident, .throughput], maxDuration: .seconds(60), maxIterations: 3)
    for format in [ExportFormat.json, .csv] {
        Benchmark("Streamed export (\(format.rawValue)), 1M sessions", configuration: exportConfiguration) { benchmark, db in
            for _ in benchmark.scaledIterations {
                var bytes = 0
                try db.export(as: format) { bytes += $0.count }
                blackHole(bytes)
            }
        } setup: {
            try database(sessions: 1_000_000)
        }
    }

    let importConfiguration = Benchmark.Configuration(metrics: [.wallClock, .throughput], maxDuration: .seconds(20), maxIterations: 5)
    Benchmark("Import 100k sessions", configuration: importConfiguration) { benchmark, sessions in
        let path = NSTemporaryDirectory() + "grove-bench-import-\(UUID().uuidString).sqlite"
        let db = try AppDatabase.open(path: path, environment: environment)
        benchmark.startMeasurement()
        try db.insertFocusSessions(sessions)
        benchmark.stopMeasurement()
        for suffix in ["", "-wal", "-shm", ".lock"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    } setup: {
        SyntheticHistory.sessions(count: 100_000, days: 1000, lastDay: calendar.localDay(of: now), calendar: calendar)
    }

    // The same, with the WAL checkpoint after the commit left out: shows how much of the import is
    // copying the WAL into the database file (which SQLite does in the committing call).
    Benchmark("Import 100k sessions, checkpoint excluded", configuration: importConfiguration) { benchmark, sessions in
        let path = NSTemporaryDirectory() + "grove-bench-import-\(UUID().uuidString).sqlite"
        let db = try AppDatabase.open(path: path, environment: environment)
        try db.writer.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_autocheckpoint = 0") }
        benchmark.startMeasurement()
        try db.insertFocusSessions(sessions)
        benchmark.stopMeasurement()
        for suffix in ["", "-wal", "-shm", ".lock"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    } setup: {
        SyntheticHistory.sessions(count: 100_000, days: 1000, lastDay: calendar.localDay(of: now), calendar: calendar)
    }
}
