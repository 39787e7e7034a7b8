import Foundation
import Testing

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
        if let dir = ProcessInfo.processInfo.environment["GROVE_BUILD_DIR"] { return URL(fileURLWithPath: dir).appendingPathComponent("grove") }
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
        var env = ["GROVE_HOME": home, "TZ": timeZone, "NO_COLOR": "1", "PATH": "/usr/bin:/bin", "HOME": home]
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

    @discardableResult
    func run(_ arguments: String..., now: String? = nil) throws -> Result { try run(arguments, now: now) }

    func run(_ arguments: [String], now: String? = nil, environment extra: [String: String] = [:]) throws -> Result {
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
        process.standardInput = FileHandle.nullDevice
        // A working directory of its own: a relative path given to a command (`--output x`) lands
        // there, never in the checkout.
        let directory = home + "-cwd"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        try process.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, out: String(decoding: o, as: UTF8.self), err: String(decoding: e, as: UTF8.self))
    }

    /// Everything in the store, to prove that a refused command changed nothing.
    func snapshot() throws -> String {
        var export = try run("export").out
        // The export's own timestamp is the only thing allowed to differ.
        if let range = export.range(of: #""exportedAt" : "[^"]*""#, options: .regularExpression) { export.removeSubrange(range) }
        return export
    }
}
