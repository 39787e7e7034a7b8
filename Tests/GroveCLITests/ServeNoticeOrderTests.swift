import Foundation
import GroveTestSupport
import Testing

/// `grove serve` rings a tree only after it has given the desktop its notifications back, as the CLI's
/// waiter does: against stand-ins for notify-send and the daemons (`Fixtures/desktop`).
@Suite("grove serve gives the desktop back before it rings", .timeLimit(.minutes(3)))
struct ServeNoticeOrderTests {
    @Test func theTreeIsAnnouncedWithBannersBack() async throws {
        let g = Grove()
        let desktop = g.home + "-desktop", bin = g.home + "-bin"
        for folder in [g.home, desktop, bin] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        // The notice records whether banners were back when it was sent.
        try "#!/bin/sh\necho \"$2 banners=$(cat '\(desktop)/banners')\" >> '\(desktop)/notices'\n".write(
            toFile: bin + "/notify-send", atomically: true, encoding: .utf8)
        chmod(bin + "/notify-send", 0o755)
        let fakes = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/desktop").path
        var env = g.environment
        env["PATH"] = "\(bin):\(fakes):/usr/bin:/bin"
        env["GROVE_FAKE_DESKTOP"] = desktop
        env["GROVE_HOLD_NOTIFICATIONS"] = nil
        env["GROVE_SHORTEST_TREE"] = "1"  // a real tree, grown in seconds
        // GROVE_NO_WAITER stays set: only the server rings. GNOME answers a change slowly, so a notice sent
        // beside the release, not after it, would find the banners still off.
        try "".write(toFile: desktop + "/slow-set", atomically: true, encoding: .utf8)
        func read(_ name: String) -> String {
            ((try? String(contentsOfFile: desktop + "/" + name, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let held = try ServeListenTests.HeldPort()
        let port = held.port
        held.close()
        let server = Process()
        server.executableURL = try Grove.binary()
        server.arguments = ["serve", "--port", "\(port)"]
        server.environment = env
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer { if server.isRunning { server.terminate() } }
        try await eventually { !server.isRunning || SyncEndToEndTests.Server.answers(port) }
        try #require(server.isRunning)
        let start = Process()
        start.executableURL = try Grove.binary()
        start.arguments = ["focus", "start", "--length", "2s"]
        start.environment = env
        start.standardOutput = FileHandle.nullDevice
        try start.run()
        start.waitUntilExit()
        #expect(start.terminationStatus == 0)
        // Held while it grows (dunst is asked last), then rung once, with the banners already back.
        try await eventually { !read("notices").isEmpty }
        #expect(read("notices") == "Tree planted! banners=true", "\(read("notices"))")
        // Not vacuous: the banners were held while the tree grew.
        #expect(read("log").contains("show-banners false"), "\(read("log"))")
    }
}
