import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The real `grove` binary in a pseudo-terminal, driven by keys like a person would.
final class PseudoTerminal {
    let process = Process()
    private let master: Int32
    private(set) var screen = ""

    init(_ grove: Grove, _ arguments: [String]) throws {
        var master: Int32 = 0, slave: Int32 = 0
        var size = winsize(ws_row: 24, ws_col: 80, ws_xpixel: 0, ws_ypixel: 0)
        guard openpty(&master, &slave, nil, nil, &size) == 0 else { throw CocoaError(.fileNoSuchFile) }
        self.master = master
        process.executableURL = try Grove.binary()
        process.arguments = arguments
        var env = grove.environment
        env["GROVE_NOW"] = nil  // a live session needs the real clock
        env["TERM"] = "xterm-256color"
        process.environment = env
        let handle = FileHandle(fileDescriptor: slave, closeOnDealloc: true)
        process.standardInput = handle
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        close(master)
    }

    func send(_ keys: String) { _ = keys.utf8CString.withUnsafeBufferPointer { write(master, $0.baseAddress, keys.utf8.count) } }

    /// Reads output until `text` appears or `timeout` passes; returns whether it appeared.
    @discardableResult
    func waitFor(_ text: String, timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !screen.contains(text) {
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { return false }
            var fds = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&fds, 1, Int32(min(left, 0.5) * 1000)) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = read(master, &buffer, buffer.count)
            if n <= 0 { return screen.contains(text) }
            screen += String(decoding: buffer[0..<n], as: UTF8.self)
        }
        return true
    }
}

@Suite("grove in a pseudo-terminal", .serialized)
struct TerminalSessionTests {
    @Test func anInteractiveSessionPausesResumesCompletesAndPlantsATree() throws {
        let g = Grove()
        let term = try PseudoTerminal(g, ["focus", "--length", "3s"])
        #expect(term.waitFor("Growing", timeout: 10))
        #expect(term.screen.contains("[p] pause"))
        term.send("p")
        #expect(term.waitFor("Paused", timeout: 5))
        #expect(try g.runBinary("focus", "status", "--json").object()["session"].flatMap { ($0 as? [String: Any])?["state"] as? String } == "paused")
        term.send("p")
        #expect(term.waitFor("Tree planted!", timeout: 10))
        #expect(term.screen.contains("notify-send is not installed") || term.screen.contains("Time for a"))
        #expect(term.waitFor("Time for a short break: 05:00", timeout: 5))
        term.send("q")
        term.process.waitUntilExit()
        #expect(term.process.terminationStatus == 0)
        let forest = try g.runBinary("forest", "--json").array()
        #expect(forest.count == 1)
        #expect(forest.first?["state"] as? String == "completed")
        #expect((forest.first?["pausedDuration"] as? Double ?? 0) > 0)
        #expect(try g.runBinary("forest").out.contains("🌳"))
    }

    @Test func killingTheWindowLeavesASessionThatCompletesOnTime() throws {
        let g = Grove()
        let term = try PseudoTerminal(g, ["focus", "--length", "4s"])
        #expect(term.waitFor("Growing", timeout: 10))
        kill(term.process.processIdentifier, SIGKILL)
        term.process.waitUntilExit()
        let running = try g.runBinary("focus", "status", "--json").object()
        let session = try #require(running["session"] as? [String: Any])
        #expect(session["state"] as? String == "active", "the session outlives its window")
        #expect((running["remaining"] as? Double ?? 0) > 0)
        let status = try g.runBinary("focus", "status")
        #expect(status.out.contains("left · Growing"))
        // Wait for the due instant using the session's own clock, then look again.
        let due = try #require(running["dueAt"] as? String)
        let dueDate = try #require(ISO8601DateFormatter.withFractions.date(from: due))
        Thread.sleep(until: dueDate.addingTimeInterval(0.3))
        let done = try #require(try g.runBinary("focus", "status", "--json").object()["session"] as? [String: Any])
        #expect(done["state"] as? String == "completed")
        #expect(done["endTime"] as? String == due, "completed at the exact instant it reached its length")
        #expect(try g.runBinary("forest", "--json").array().count == 1)
    }

    @Test func theDetachKeyLeavesTheSessionRunning() throws {
        let g = Grove()
        let term = try PseudoTerminal(g, ["focus", "--length", "25m"])
        #expect(term.waitFor("Growing", timeout: 10))
        term.send("d")
        #expect(term.waitFor("Detached", timeout: 5))
        term.process.waitUntilExit()
        #expect(try g.runBinary("now").out.hasPrefix("· 24:") || g.runBinary("now").out.hasPrefix("· 25:"))
        #expect(try g.runBinary("focus", "abandon").status == 0)
    }
}

@Suite("Countdowns that take real time", .serialized)
struct CountdownTests {
    @Test func proceedingAfterTheFullPauseRunsTheCommandAndRecordsCompleted() throws {
        let g = Grove()
        let marker = g.home + "-opened"
        let result = try g.runBinary("pause", "youtube", "--choice", "proceed", "--", "/usr/bin/touch", marker)
        #expect(result.status == 0)
        #expect(result.out.contains("Going on to YouTube, mindfully."))
        #expect(FileManager.default.fileExists(atPath: marker), "the command ran")
        let stats = try g.runBinary("pause", "stats", "--json").array()
        #expect(stats.first?["completedSessions"] as? Int == 1)
        #expect((stats.first?["avgTimeSpent"] as? Double ?? 0) >= 15)
    }

    @Test func timerRunTicksTheChecklistWithNumberKeys() throws {
        let g = Grove()
        try g.runBinary("timer", "add", "Tea", "--duration", "2s", "--todo", "Kettle", "--todo", "Cup")
        let term = try PseudoTerminal(g, ["timer", "run", "tea"])
        #expect(term.waitFor("[ ] Cup", timeout: 10))
        term.send("2")
        #expect(term.waitFor("[x] Cup", timeout: 5))
        #expect(term.waitFor("Tea is done.", timeout: 10))
        term.process.waitUntilExit()
        #expect(term.process.terminationStatus == 0)
        let timer = try g.runBinary("timer", "show", "tea", "--json").object()
        #expect((timer["todoItems"] as? [[String: Any]])?.map { $0["isCompleted"] as? Bool } == [false, true])
    }
}

extension ISO8601DateFormatter {
    static var withFractions: ISO8601DateFormatter {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f
    }
}
