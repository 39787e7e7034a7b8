import Foundation
import GroveCore
import GroveStore
import Testing
@testable import GroveCLI

@Suite("grove (dashboard)")
struct DashboardTests {
    @Test func dashboardShowsIntentionSessionTreesAndStreak() throws {
        let clock = TestClock(ISO8601DateFormatter().date(from: "2025-05-14T09:00:00Z")!)
        let db = try AppDatabase.inMemory(environment: .test(clock: clock))
        #expect(try Dashboard.load(from: db).text == "No intention set for today.\nToday: 0 trees, 0m focused\nStreak: 0 days (longest 0)")
        try db.setIntention("Write the intro", scope: .day)
        try db.logFocusSession(start: clock.now - 3600, end: clock.now - 2100)
        try db.startFocusSession(plannedDuration: 600)
        clock.advance(by: 90)
        let text = try Dashboard.load(from: db).text
        #expect(text == "Intention (day): Write the intro\nFocus: Active, 8:30 left\nToday: 1 tree, 25m focused\nStreak: 1 day (longest 1)")
    }
}

@Suite("grove binary, end to end", .serialized)
struct GroveBinaryTests {
    static func binary() throws -> URL {
        let exe = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        var dir = exe.deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("grove")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        throw CocoaError(.fileNoSuchFile)
    }

    func run(_ arguments: [String], environment: [String: String]) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = try Self.binary()
        process.arguments = arguments
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }

    @Test func groveHomeIsWhereTheDataGoes() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("grove-e2e-\(UUID().uuidString)").path
        let result = try run([], environment: ["GROVE_HOME": home, "TZ": "UTC"])
        #expect(result.status == 0)
        #expect(result.out.contains("Streak: 0 days"))
        #expect(FileManager.default.fileExists(atPath: home + "/grove.sqlite"))
        let json = try run(["--json"], environment: ["GROVE_HOME": home])
        #expect(json.out.contains("\"currentStreak\" : 0"))
    }

    @Test func badUsageExitsWith64() throws {
        let result = try run(["--no-such-flag"], environment: ["GROVE_HOME": FileManager.default.temporaryDirectory.path + "/grove-e2e-bad"])
        #expect(result.status == 64)
        #expect(result.err.contains("no-such-flag"))
    }
}
