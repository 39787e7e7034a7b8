import Foundation
import GroveCore
import GroveStore
import GroveSystem
import GroveTestSupport
import Testing

@testable import GroveServer

/// `grove serve` holds the desktop's notifications for a session started from any face (the web, the
/// API, another process), and gives them back when it ends — against stand-ins for the daemons.
@Suite("grove serve holds notifications while a tree grows", .timeLimit(.minutes(5)))
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
        // on a loaded machine (the test suite spawns hundreds of processes) is asked again. No deadline
        // of its own: the suite's time limit ends a wait that never ends.
        func waitFor(_ value: String) async throws -> Bool {
            while banners() != value {
                changes.signal()
                try await Task.sleep(for: .milliseconds(200))
            }
            return true
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
        try await eventually { !hold.isHeld }
        #expect(!hold.isHeld)
    }
}
