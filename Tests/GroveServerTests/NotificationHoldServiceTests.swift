import Foundation
import GroveCore
import GroveStore
import GroveSystem
import Testing

@testable import GroveServer

/// `grove serve` holds the desktop's notifications for a session started from any face (the web, the
/// API, another process), and gives them back when it ends — against stand-ins for the daemons.
@Suite("grove serve holds notifications while a tree grows")
struct NotificationHoldServiceTests {
    @Test func aSessionFromAnyFaceIsHeldAndItsEndGivesThemBack() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("grove-serve-hold-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let fakes = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/desktop").path
        let store = folder.appendingPathComponent("grove.sqlite").path
        let db = try AppDatabase.open(path: store, environment: .test(clock: TestClock(Date())))
        let hold = NotificationHold(storePath: store, environment: ["PATH": "\(fakes):/usr/bin:/bin", "GROVE_FAKE_DESKTOP": folder.path])
        let changes = WakeSignal()
        let maintenance = MaintenanceService(database: db, changes: changes, hold: hold)
        let running = Task { try await maintenance.run() }
        defer { running.cancel() }
        func banners() -> String {
            ((try? String(contentsOf: folder.appendingPathComponent("banners"), encoding: .utf8)) ?? "")
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        // Each look is a wake-up, as each commit of a busy store is: a daemon that answered too slowly
        // on a loaded machine (the test suite spawns hundreds of processes) is asked again. The bound is
        // a hang guard, not a timing: in a full run the service's task may wait a minute for a thread
        // while the suite's first CPU-bound tests fill both.
        func waitFor(_ value: String) async throws -> Bool {
            let started = ContinuousClock.now
            while banners() != value && started.duration(to: .now) < .seconds(180) {
                changes.signal()
                try await Task.sleep(for: .milliseconds(200))
            }
            return banners() == value
        }
        // A session started elsewhere: the commit wakes the service, which holds.
        try db.focus.start()
        changes.signal()
        #expect(try await waitFor("false"))
        #expect(hold.isHeld)
        try db.focus.abandon()
        changes.signal()
        #expect(try await waitFor("true"))
        // The file goes last, after every daemon has its setting back.
        let started = ContinuousClock.now
        while hold.isHeld && started.duration(to: .now) < .seconds(180) { try await Task.sleep(for: .milliseconds(20)) }
        #expect(!hold.isHeld)
    }
}
