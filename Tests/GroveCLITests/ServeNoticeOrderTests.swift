import Foundation
import GroveTestSupport
import Testing

/// `grove serve` rings a tree only after it has given the desktop its notifications back, as the CLI's
/// waiter does: against stand-ins for notify-send and the daemons (`Fixtures/desktop`).
@Suite("grove serve gives the desktop back before it rings", .timeLimit(.minutes(3)))
struct ServeNoticeOrderTests {
    @Test func theTreeIsAnnouncedWithBannersBack() async throws {
        let g = Grove()
        let fake = try FakeDesktop(g)
        let desktop = fake.folder, env = fake.environment
        // GROVE_NO_WAITER stays set: only the server rings. GNOME answers a change slowly, so a notice sent
        // beside the release, not after it, would find the banners still off.
        try "".write(toFile: desktop + "/slow-set", atomically: true, encoding: .utf8)
        let read = fake.read
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
