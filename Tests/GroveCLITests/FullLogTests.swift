import Foundation
import GroveTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A log that cannot be written never takes a server down: both servers with standard output and
/// error on `/dev/full` (every write fails with ENOSPC, as on a full log disk) start, answer, and end
/// only when told to.
@Suite("Servers outlive a log they cannot write", .timeLimit(.minutes(3)))
struct FullLogTests {
    @Test("serving with its output on /dev/full", arguments: ["serve", "sync-server"])
    func fullLog(command: String) async throws {
        let grove = Grove()
        try FileManager.default.createDirectory(atPath: grove.home, withIntermediateDirectories: true)
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        var arguments = [command]
        if command == "sync-server" { arguments += ["--database", grove.home + "/sync-server.sqlite"] }
        let held = try ServeListenTests.HeldPort()
        let port = held.port
        held.close()  // a port free a moment ago: the server takes it
        let process = Process()
        process.executableURL = try Grove.binary()
        process.arguments = arguments + ["--port", "\(port)"]
        process.environment = grove.environment
        process.standardOutput = full
        process.standardError = full
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        // It answers (a log line per request, each refused by the disk).
        try await eventually { !process.isRunning || SyncEndToEndTests.Server.answers(port) }
        #expect(process.isRunning, "the server died at start: status \(process.terminationStatus)")
        for path in ["/healthz", "/api/v1/focus/current", "/nowhere"] {
            _ = try? Data(contentsOf: try #require(URL(string: "http://127.0.0.1:\(port)\(path)")))
        }
        #expect(process.isRunning, "the server died of a log line: status \(process.terminationStatus)")
        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit || process.terminationStatus == SIGTERM, "\(process.terminationStatus)")
    }
}
