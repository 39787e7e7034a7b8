import Foundation
import GroveCore
import GroveStore
import GroveSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Everything a command reaches outside itself: the store's environment (time, ids, zone), the
/// process's variables, the terminal, and where output goes.
///
/// Commands read it from `CLIEnvironment.current`, a task-local: the `grove` binary runs with `live`,
/// and tests run commands in-process with their own (captured output, a frozen clock, plain terminal),
/// many at once, each in its own task.
///
/// `GROVE_NOW=2025-03-12T04:00:00Z` freezes the clock of `live` at that instant: end-to-end tests and
/// demos use it to live on a chosen day (a DST change, say). Live countdowns need the real clock.
public struct CLIEnvironment: Sendable {
    /// Time, ids, the system zone and the machine's clock readings, for the store.
    public var grove: GroveEnvironment
    /// The process's environment variables (`GROVE_HOME`, `XDG_DATA_HOME`, `HOME`, `NO_COLOR`, `COLUMNS`, …).
    public var variables: [String: String]
    /// What the terminal can do.
    public var terminal: TerminalTraits
    /// Standard output and standard error.
    public var output: OutputStreams
    /// The directory relative paths given on the command line are read against.
    public var workingDirectory: String
    /// Keys, a monotonic clock, waiting and notifications, for the live screens.
    public var io: LiveIO
    /// The first line of standard input (a password given with `--password-stdin`), at most 4 KiB;
    /// nil when standard input is empty.
    public var readInputLine: @Sendable () -> String?
    /// Starts a detached `grove` with these arguments (`DetachedWaiter`); in-process tests start nothing.
    public var detach: @Sendable (_ arguments: [String]) -> Void
    /// Makes this process a waiter of its own, deaf to its terminal's hang-up (the process's only).
    public var detachSelf: @Sendable () -> Void

    public init(
        grove: GroveEnvironment, variables: [String: String], terminal: TerminalTraits, output: OutputStreams,
        workingDirectory: String = FileManager.default.currentDirectoryPath, io: LiveIO = .live,
        readInputLine: @escaping @Sendable () -> String? = CLIEnvironment.readStandardInputLine,
        detach: @escaping @Sendable ([String]) -> Void = { _ in }, detachSelf: @escaping @Sendable () -> Void = {}
    ) {
        self.grove = grove
        self.variables = variables
        self.terminal = terminal
        self.output = output
        self.workingDirectory = workingDirectory
        self.io = io
        self.readInputLine = readInputLine
        self.detach = detach
        self.detachSelf = detachSelf
    }

    /// Reads standard input up to the first newline (or 4 KiB, or its end).
    public static let readStandardInputLine: @Sendable () -> String? = {
        var bytes: [UInt8] = []
        let input = FileHandle.standardInput
        while bytes.count < 4096 {
            guard let chunk = try? input.read(upToCount: 1), let byte = chunk.first else { break }
            if byte == 0x0A { break }
            bytes.append(byte)
        }
        if bytes.last == 0x0D { bytes.removeLast() }
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }

    /// `path` as given on the command line, made absolute against `workingDirectory`.
    public func resolve(_ path: String) -> String {
        path.hasPrefix("/") ? path : URL(fileURLWithPath: workingDirectory).appendingPathComponent(path).path
    }

    /// The process's own: real clock (or `GROVE_NOW`), real variables, the real terminal and streams.
    public static let live: CLIEnvironment = {
        let variables = processVariables()
        return CLIEnvironment(
            grove: groveEnvironment(variables), variables: variables, terminal: .detect(environment: variables), output: .standard,
            detach: DetachedWaiter.live(variables: variables), detachSelf: DetachedWaiter.detachFromTerminal)
    }()

    /// The process's environment variables, read from `environ` (the first of a name wins, as
    /// `getenv` finds it). `ProcessInfo.environment` gives the same dictionary at several times the
    /// cost, paid before every command, `grove now` on each prompt included.
    static func processVariables() -> [String: String] {
        #if os(Linux)
            var variables: [String: String] = [:]
            var entry = environ
            while let pointer = entry.pointee {
                let text = String(cString: pointer)
                if let equals = text.utf8.firstIndex(of: UInt8(ascii: "=")) {
                    let name = String(text[..<equals])
                    if variables[name] == nil { variables[name] = String(text[text.utf8.index(after: equals)...]) }
                }
                entry += 1
            }
            return variables
        #else
            return ProcessInfo.processInfo.environment
        #endif
    }

    /// The environment of the command running in this task.
    @TaskLocal public static var current: CLIEnvironment = .live

    /// The store's environment for these variables: frozen at `GROVE_NOW` when it is set; a tree's
    /// cost lowered to `GROVE_SHORTEST_TREE` seconds (1–60) for the end-to-end tests, which watch real
    /// sessions end in real time.
    static func groveEnvironment(_ variables: [String: String]) -> GroveEnvironment {
        var environment = GroveEnvironment.live
        if let text = variables["GROVE_NOW"], let frozen = GroveExport.parseInstant(text) {
            environment = GroveEnvironment(
                now: { frozen }, uuid: { UUID.random() }, systemTimeZone: { TimeZone.current }, clockReading: { ClockReading(wall: frozen) }
            )
        }
        if let text = variables["GROVE_SHORTEST_TREE"], let seconds = Int(text), (1...60).contains(seconds) {
            environment.shortestTree = TimeInterval(seconds)
        }
        return environment
    }
}

/// Where a command's output goes: the process's streams, or buffers a test reads.
public struct OutputStreams: Sendable {
    public var standardOutput: @Sendable (Data) -> Void
    public var standardError: @Sendable (Data) -> Void

    public init(standardOutput: @escaping @Sendable (Data) -> Void, standardError: @escaping @Sendable (Data) -> Void) {
        self.standardOutput = standardOutput
        self.standardError = standardError
    }

    /// The process's standard output and error (a write that fails is dropped, never a trap).
    public static let standard = OutputStreams(
        standardOutput: { StandardStream.output.write($0) }, standardError: { StandardStream.error.write($0) })
}

/// Within the `grove` commands, `print` writes to the current environment's standard output (the
/// process's, or a test's buffer), so that every command runs in-process in tests.
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    let text = items.map { "\($0)" }.joined(separator: separator) + terminator
    CLIEnvironment.current.output.standardOutput(Data(utf8: TerminalText.neutralized(text)))
}
