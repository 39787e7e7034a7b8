import Foundation
import GRDB
import GroveCore
import GroveStore
import GroveSync
import Testing

/// The outbox is written in the same transaction as the data, whoever writes.
@Suite("Capture")
struct CaptureTests {
    @Test("an import into a linked store goes out; another program's SQL is captured too")
    func importAndForeignWrites() async throws {
        let world = try await SyncFaultTests.World()
        let a = try await world.device(), b = try await world.device()
        _ = try await a.engine.sync()
        let before = try a.database.sync.pendingCount()
        #expect(before == 0)
        // An import (the streaming path that sets the per-day triggers aside).
        let donor = try AppDatabase.inMemory()
        let end = SyncFaultTests.start.addingTimeInterval(-86_400)
        for index in 0..<5 {
            _ = try donor.focus.log(
                start: end.addingTimeInterval(Double(index) * 3600 - 1500), end: end.addingTimeInterval(Double(index) * 3600))
        }
        let export = FileManager.default.temporaryDirectory.appendingPathComponent("grove-capture-\(UUID().uuidString).json").path
        try donor.transfer.export(as: .json).write(to: URL(fileURLWithPath: export))
        _ = try a.database.transfer.importJSON(contentsOf: export)
        // The five sessions (and the preferences the file carries) wait to go out.
        let sessions = try a.database.sync.mutationsToPush().filter { $0.entity == "focusSession" }
        #expect(sessions.count == 5 && sessions.allSatisfy { $0.insert == true })
        _ = try await a.engine.sync()
        _ = try await b.engine.sync()
        #expect(try b.database.focus.sessions(limit: 10).count == 5)

        // A write from a program that is not Grove (the sqlite3 shell) on a store file.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("grove-foreign-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/grove.sqlite"
        try b.database.backup(to: path)
        let linked = try AppDatabase.open(path: path, environment: b.database.environment, concurrentReads: false)
        let timer = try linked.timers.create(name: "Shell edit", durationInSeconds: 60)
        _ = try linked.sync.mutationsToPush()
        try linked.sync.acknowledge(through: Int64.max)
        let shell = try DatabaseQueue(path: path)
        try await shell.write { db in
            try db.execute(sql: "UPDATE timer SET name = 'Renamed in the shell' WHERE id = ?", arguments: [timer.id.uuidString])
        }
        let mutations = try linked.sync.mutationsToPush()
        #expect(mutations.count == 1)
        #expect(mutations.first?.fields["name"] == .text("Renamed in the shell"))
    }

    @Test("capture triggers exist only while the store is linked, and come back if removed by hand")
    func triggersFollowTheLink() async throws {
        func count(_ path: String) throws -> Int {
            let sql = "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'sync_capture_%'"
            return try DatabaseQueue(path: path).read { (db: Database) throws -> Int in try Int.fetchOne(db, sql: sql) ?? -1 }
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("grove-triggers-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/grove.sqlite"
        let store = try AppDatabase.open(path: path, concurrentReads: false)
        #expect(try count(path) == 0)
        try store.sync.begin(SyncDevice(serverURL: "http://127.0.0.1:1", user: "ada", deviceId: UUID(), deviceName: "x", tokenFile: ""))
        #expect(try count(path) == 3 * SyncEntity.all.count)
        // Dropped by hand (or by an older Grove): the next open puts them back.
        try await DatabaseQueue(path: path).write { try $0.execute(sql: "DROP TRIGGER sync_capture_timer_update") }
        _ = try AppDatabase.open(path: path, concurrentReads: false)
        #expect(try count(path) == 3 * SyncEntity.all.count)
        try store.sync.end()
        #expect(try count(path) == 0)
    }
}
