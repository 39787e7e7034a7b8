import Foundation
import GRDB
import GroveCore
import GroveTestSupport
import Testing

@testable import GroveStore

/// Real processes writing one real file: SIGKILL mid-write, and two writers at once.
@Suite("Durability across processes", .serialized, .heavy, .timeLimit(.minutes(10)))
struct DurabilityTests {
    /// The `grove-stress` helper built beside the test bundle.
    static func stressBinary() throws -> URL {
        if let dir = ProcessInfo.processInfo.environment["GROVE_BUILD_DIR"] {
            return URL(fileURLWithPath: dir).appendingPathComponent("grove-stress")
        }
        let exe = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        var dir = exe.deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("grove-stress")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        throw InvalidField("grove-stress", "grove-stress not found near \(exe.path); run `swift build` first")
    }

    static func tempDatabase() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("grove-durability-\(UUID().uuidString)/grove.sqlite").path
    }

    /// Reads "ack <id>" lines from `handle` until `count` arrived or the stream ended.
    static func readAcks(_ handle: FileHandle, until count: Int, into acks: inout [String], buffer: inout Data) {
        while acks.count < count {
            let chunk = handle.availableData
            if chunk.isEmpty { return }
            buffer.append(chunk)
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                if line.hasPrefix("ack ") { acks.append(String(line.dropFirst(4))) }
            }
        }
    }

    @Test func sigkillMidWriteNeverLosesAnAcknowledgedWriteNorCorruptsTheFile() throws {
        try Self.killRepeatedly(threads: 1, rounds: 25)
    }

    /// Eight threads at once: their writes share commits (`GroupCommit`), and a kill lands mid-batch.
    @Test func sigkillDuringGroupCommitsNeverLosesAnAcknowledgedWrite() throws {
        try Self.killRepeatedly(threads: 8, rounds: 12)
    }

    /// Starts the writer `rounds` times on one file with `threads` writing threads, SIGKILLs it after a
    /// random number of acknowledged writes, then checks that every acknowledged write is there.
    static func killRepeatedly(threads: Int, rounds: Int) throws {
        let binary = try Self.stressBinary()
        let path = Self.tempDatabase()
        var acknowledged: [String] = []
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<rounds {
            let process = Process()
            process.executableURL = binary
            process.arguments = ["write", path, "1000000", String(threads)]
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Kill after a random number of acknowledged commits: the writer is mid-transaction or
            // mid-fsync most of the time, since it never stops writing.
            var acks: [String] = []
            var buffer = Data()
            Self.readAcks(out.fileHandleForReading, until: Int.random(in: 1...60, using: &generator), into: &acks, buffer: &buffer)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal)
            // Acks already written before the kill are acknowledged too.
            Self.readAcks(out.fileHandleForReading, until: .max, into: &acks, buffer: &buffer)
            acknowledged += acks
        }
        let db = try AppDatabase.open(path: path)
        #expect(try db.integrityCheck() == "ok")
        let stored = Set(try db.writer.read { try String.fetchAll($0, sql: "SELECT id FROM focus_session") })
        let missing = acknowledged.filter { !stored.contains($0) }
        #expect(missing.isEmpty, "acknowledged writes lost: \(missing.count)")
        #expect(acknowledged.count >= rounds)
        // The trigger-kept totals agree with the rows after every crash.
        let totals = try db.writer.read { try Int.fetchOne($0, sql: "SELECT total(trees) FROM focus_day") }
        #expect(totals == stored.count)
    }

    @Test func twoProcessesWriteOneFileAtOnceWithoutBusyErrors() throws {
        let binary = try Self.stressBinary()
        let path = Self.tempDatabase()
        var processes: [(Process, Pipe)] = []
        // Both start on a file that does not exist yet: they race to create and migrate it too.
        for _ in 0..<2 {
            let process = Process()
            process.executableURL = binary
            process.arguments = ["write", path, "300"]
            let err = Pipe()
            process.standardOutput = FileHandle.nullDevice
            process.standardError = err
            try process.run()
            processes.append((process, err))
        }
        for (process, err) in processes {
            process.waitUntilExit()
            let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(process.terminationStatus == 0, "writer failed: \(message)")
            #expect(!message.contains("SQLITE_BUSY") && !message.contains("locked"))
        }
        let db = try AppDatabase.open(path: path)
        #expect(try db.writer.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM focus_session") } == 600)
        #expect(try db.integrityCheck() == "ok")
    }

    /// The server's watcher beside another process's commits (the CLI's): each one seen by the next
    /// question, and the watcher leaves SQLite's locks on the `-shm` file alone. (Opening and closing
    /// a descriptor of that file drops every POSIX lock the process holds on it: the next process to
    /// open the store then starts the file over, and a read of the old mapping dies of SIGBUS.)
    @Test func theVersionWatcherSeesAnotherProcesssCommits() throws {
        let binary = try Self.stressBinary()
        let path = Self.tempDatabase()
        let server = try AppDatabase.open(path: path)
        let watcher = try DataVersionWatcher(path: path)
        var seen = try watcher.version()
        for _ in 0..<3 { #expect(try watcher.version() == seen) }
        #expect(try Self.someoneLocks(path + "-shm"), "this process's locks on the -shm file were dropped")
        for round in 1...3 {
            let process = Process()
            process.executableURL = binary
            process.arguments = ["write", path, "2"]
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            let version = try watcher.version()
            #expect(version != seen, "round \(round): another process's commits not seen")
            seen = version
            #expect(try watcher.version() == seen)
        }
        #expect(try server.writer.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM focus_session") } == 6)
    }

    /// Whether any lock is held on `file`, this process's POSIX locks included: an open file
    /// description lock (`F_OFD_GETLK`, Linux) conflicts with those too. The descriptor stays open
    /// until the process ends, since closing it would drop this process's locks on the file.
    static func someoneLocks(_ file: String) throws -> Bool {
        let descriptor = open(file, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { throw InvalidField("file", "cannot open \(file)") }
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        // F_OFD_GETLK (36 in <fcntl.h>, defined only under _GNU_SOURCE, which Swift's Glibc lacks).
        guard fcntl(descriptor, 36, &lock) == 0 else { throw InvalidField("file", "F_OFD_GETLK failed: \(errno)") }
        return lock.l_type != Int16(F_UNLCK)
    }
}
