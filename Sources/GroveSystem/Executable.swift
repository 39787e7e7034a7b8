import Foundation

/// Programs on the PATH.
public enum Executable {
    /// The first executable called `name` on `PATH`, or nil.
    public static func find(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        environment["PATH"]?.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

extension Executable {
    /// Runs `path` with `arguments` to its end: its status and standard output (standard error
    /// dropped). Nil when it cannot be started. Bounded: a program still running after `timeout`
    /// seconds (a desktop command without its session bus can hang) is killed with everything it
    /// started (its own process group), and the status is 128 + SIGKILL.
    public static func run(
        _ path: String, _ arguments: [String], environment: [String: String]? = nil, timeout: TimeInterval = 30
    ) -> (status: Int32, output: String)? {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        let (reading, writing) = (ends[0], ends[1])
        // Neither end leaks into the child (its standard output is a copy of `writing`).
        _ = fcntl(reading, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writing, F_SETFD, FD_CLOEXEC)
        let pid: pid_t
        do {
            pid = try ChildProcess.spawn(path, arguments, environment: environment, standardOutput: writing, ownGroup: true)
        } catch {
            close(reading)
            close(writing)
            return nil
        }
        close(writing)
        let deadline = ContinuousClock.now + .milliseconds(Int64(max(0, timeout) * 1000))
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while output.count < 1 << 20 {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { break }
            var descriptor = pollfd(fd: reading, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(clamping: max(1, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
            let ready = poll(&descriptor, 1, milliseconds)
            if ready < 0 && errno != EINTR { break }
            guard ready > 0 else { continue }
            let count = read(reading, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }  // the end of its output (or an error)
            output += buffer[0..<count]
        }
        close(reading)
        let (status, _) = ChildProcess.wait(pid, until: deadline)
        return (status, String(decoding: output, as: UTF8.self))
    }
}
