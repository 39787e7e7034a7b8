import Foundation
import GroveCore
import GroveStore
import GroveSystem
import Testing

@testable import GroveCLI

/// Runs the built `grove` binary in its own GROVE_HOME.
struct Grove {
    let home: String
    var timeZone = "UTC"
    var now: String?

    init(timeZone: String = "UTC", now: String? = nil) {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("grove-cli-\(UUID().uuidString)").path
        self.timeZone = timeZone
        self.now = now
    }

    static func binary() throws -> URL {
        if let dir = ProcessInfo.processInfo.environment["GROVE_BUILD_DIR"] {
            return URL(fileURLWithPath: dir).appendingPathComponent("grove")
        }
        let exe = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        var dir = exe.deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("grove")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        throw CocoaError(.fileNoSuchFile)
    }

    var environment: [String: String] {
        // No detached waiters from tests' binaries unless a test asks (they would outlive the test).
        // Nor a hold on this machine's notifications (a test that wants one gives stand-ins).
        var env = [
            "GROVE_HOME": home, "TZ": timeZone, "NO_COLOR": "1", "PATH": "/usr/bin:/bin", "HOME": home, "GROVE_NO_WAITER": "1",
            "GROVE_HOLD_NOTIFICATIONS": "off",
        ]
        if let now { env["GROVE_NOW"] = now }
        return env
    }

    struct Result {
        var status: Int32
        var out: String
        var err: String
        func json() throws -> Any { try JSONSerialization.jsonObject(with: Data(out.utf8), options: [.fragmentsAllowed]) }
        func object() throws -> [String: Any] { try #require(try json() as? [String: Any]) }
        func array() throws -> [[String: Any]] { try #require(try json() as? [[String: Any]]) }
    }

    /// Runs `grove arguments` in this process, in an environment of its own: this store, this zone, the
    /// clock frozen at `now` (or `GROVE_NOW`), a plain terminal, output captured. Many run at once.
    @discardableResult
    func run(_ arguments: String..., now: String? = nil) async throws -> Result { try await run(arguments, now: now) }

    func run(
        _ arguments: [String], now: String? = nil, environment extra: [String: String] = [:], live: LiveScript? = nil,
        terminal: TerminalTraits? = nil, io: LiveIO? = nil, parsed: Bool = false
    ) async throws -> Result {
        var variables = environment
        if let now { variables["GROVE_NOW"] = now }
        variables.merge(extra) { $1 }
        let zone = TimeZone(identifier: timeZone) ?? TimeZone(secondsFromGMT: 0) ?? .current
        let frozen = variables["GROVE_NOW"].flatMap(GroveExport.parseInstant)
        // A live screen runs on the script's test clock; anything else on a frozen or the real clock.
        let grove =
            live.map { GroveEnvironment.test(clock: $0.clock, zone: zone) }
            ?? GroveEnvironment(
                now: { frozen ?? Date().groveRoundedToMillis }, uuid: { UUID() }, systemTimeZone: { zone },
                clockReading: { frozen.map { ClockReading(wall: $0) } ?? MachineClock.read() })
        let columns = variables["COLUMNS"].flatMap(Int.init).map {
            min(max($0, TerminalTraits.widthRange.lowerBound), TerminalTraits.widthRange.upperBound)
        }
        let out = Captured(), err = Captured()
        let directory = home + "-cwd"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let cli = CLIEnvironment(
            grove: grove, variables: variables,
            terminal: terminal ?? TerminalTraits(color: false, trueColor: false, width: columns ?? 80, isTTY: false),
            output: OutputStreams(standardOutput: out.append, standardError: err.append), workingDirectory: directory,
            io: io ?? live?.io ?? LiveIO(openTerminal: { nil }, uptime: { 0 }, sleep: { _ in }, notify: { _, _ in false }),
            readInputLine: { [input = variables["GROVE_TEST_STDIN"]] in input },
            detach: { [live] in live?.detached($0) })
        let status = await CLIEnvironment.$current.withValue(cli) {
            parsed ? await GroveCommand.executeParsed(arguments) : await GroveCommand.execute(arguments)
        }
        return Result(status: status, out: out.text, err: err.text)
    }

    /// Runs the built `grove` binary: for the few checks that need a real process (a terminal, a
    /// signal, a child process, exit statuses as the shell sees them).
    @discardableResult
    func runBinary(_ arguments: String..., now: String? = nil) throws -> Result { try runBinary(arguments, now: now) }

    func runBinary(
        _ arguments: [String], now: String? = nil, environment extra: [String: String] = [:], input: Data? = nil,
        timeout: TimeInterval = 120
    ) throws -> Result {
        let process = Process()
        process.executableURL = try Self.binary()
        process.arguments = arguments
        var env = environment
        if let now { env["GROVE_NOW"] = now }
        env.merge(extra) { $1 }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let stdin = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        // A working directory of its own: a relative path given to a command (`--output x`) lands
        // there, never in the checkout.
        let directory = home + "-cwd"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        try process.run()
        // A command that should end but does not (a server that bound after all) is stopped, and the
        // test fails on its status instead of hanging the run.
        let watchdog = DispatchWorkItem { [process] in if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        defer { watchdog.cancel() }
        if let input {
            stdin.fileHandleForWriting.write(input)
            try? stdin.fileHandleForWriting.close()
        }
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, out: String(decoding: o, as: UTF8.self), err: String(decoding: e, as: UTF8.self))
    }

    /// Runs a checker (`desktop-file-validate`, `systemd-analyze`) when the machine has it; CI must.
    static func check(_ tool: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        guard let path = Executable.find(tool, environment: ["PATH": "/usr/bin:/bin"]) else {
            if ProcessInfo.processInfo.environment["CI"] != nil { Issue.record("\(tool) is missing on CI") }
            return
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let said = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0 && said.isEmpty, "\(tool): \(said)")
    }

    /// Everything in the store, to prove that a refused command changed nothing.
    func snapshot() async throws -> String {
        var export = try await run("export").out
        // The export's own timestamp is the only thing allowed to differ.
        if let range = export.range(of: #""exportedAt" : "[^"]*""#, options: .regularExpression) { export.removeSubrange(range) }
        return export
    }
}

/// Output a command wrote in-process.
final class Captured: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    @Sendable func append(_ more: Data) { lock.withLock { data.append(more) } }
    var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
}

/// A person at a terminal, scripted: keys pressed at given seconds of a test clock that moves only
/// while a live screen waits. A 25-minute session runs in microseconds, the same way every time.
final class LiveScript: @unchecked Sendable, KeyReader {
    let clock: TestClock
    private let lock = NSLock()
    private var keys: [(at: TimeInterval, key: Character)]
    private let start: TimeInterval
    private let hasTerminal: Bool
    private(set) var notifications: [String] = []
    /// The detached waiters commands asked for (their arguments), in order.
    private(set) var waiters: [[String]] = []
    func detached(_ arguments: [String]) { lock.withLock { waiters.append(arguments) } }

    /// `keys`: seconds after the start and the key pressed then. Without a terminal, screens only wait.
    init(clock: TestClock, keys: [(TimeInterval, Character)] = [], terminal: Bool = true) {
        self.clock = clock
        self.keys = keys.map { (at: $0.0, key: $0.1) }.sorted { $0.at < $1.at }
        start = clock.sinceBoot
        hasTerminal = terminal
    }

    /// Seconds since the script started.
    var elapsed: TimeInterval { clock.sinceBoot - start }

    func readKey(timeout: TimeInterval) -> Character? {
        lock.withLock {
            let now = clock.sinceBoot - start
            // A screen that would wait past a simulated day has lost its way: end it.
            guard now < 86_400 else { return "q" }
            if let next = keys.first, next.at <= now + timeout {
                if next.at > now { clock.advance(by: next.at - now) }
                keys.removeFirst()
                return next.key
            }
            clock.advance(by: max(timeout, 0.001))
            return nil
        }
    }

    func restore() {}

    var io: LiveIO {
        LiveIO(
            openTerminal: { [self] in hasTerminal ? self : nil }, uptime: { [clock] in clock.sinceBoot },
            sleep: { [clock] in clock.advance(by: $0) },
            notify: { [self] title, body in
                lock.withLock { notifications.append("\(title): \(body)") }; return true
            })
    }
}
