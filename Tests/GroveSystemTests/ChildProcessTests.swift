import Foundation
import GroveSystem
import GroveTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Programs Grove starts get a clean signal mask and default handling whatever thread starts them,
/// and a helper Grove waits on is ended, with everything it started, at its deadline.
@Suite("Child processes: signals and deadlines", .timeLimit(.minutes(5)))
struct ChildProcessTests {
    /// The `Sig…` lines of `/proc/PID/status` of a program started the way Grove starts helpers.
    static func signalLines() throws -> [String: String] {
        let result = try #require(Executable.run("/bin/sh", ["-c", "grep -E '^Sig(Blk|Ign)' /proc/self/status"]))
        #expect(result.status == 0)
        var lines: [String: String] = [:]
        for line in result.output.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2 { lines[parts[0]] = parts[1] }
        }
        return lines
    }

    @Test("nothing blocked or ignored in a child, even when the starting thread blocks every signal")
    func cleanMask() async throws {
        // Started from a thread that blocks everything, as Grove's pools' threads do.
        let lines = try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                var all = sigset_t()
                sigfillset(&all)
                pthread_sigmask(SIG_BLOCK, &all, nil)
                continuation.resume(with: Result { try Self.signalLines() })
            }
            thread.start()
        }
        // Signals 1–31 (32 and 33 are the C library's own).
        let blocked = UInt64(lines["SigBlk"] ?? "", radix: 16), ignored = UInt64(lines["SigIgn"] ?? "", radix: 16)
        #expect(blocked.map { $0 & 0x7FFF_FFFF } == 0, "\(lines)")
        #expect(ignored.map { $0 & 0x7FFF_FFFF } == 0, "\(lines)")
    }

    @Test("a helper that hangs is killed at its deadline, with what it started")
    func deadline() async throws {
        let result = try #require(Executable.run("/bin/sh", ["-c", "sleep 300 & echo $!; sleep 300"], timeout: 0.5))
        #expect(result.status == 128 + SIGKILL)
        let background = try #require(Int32(result.output.trimmingCharacters(in: .whitespacesAndNewlines)))
        // The background sleep went with its group: gone, or a zombie waiting for its new parent.
        try await eventually {
            guard let stat = try? String(contentsOfFile: "/proc/\(background)/stat", encoding: .utf8) else { return true }
            return stat.contains(") Z ")
        }
    }

    @Test("a helper's output and status come back whole")
    func output() throws {
        let result = try #require(Executable.run("/bin/sh", ["-c", "printf 'one\\ntwo'; exit 3"]))
        #expect(result.status == 3 && result.output == "one\ntwo")
        #expect(Executable.run("/nonexistent/program", []) == nil)
    }
}
