import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Grove Sync with real processes: a `grove sync-server` on loopback and two stores (two
/// `GROVE_HOME`s), edited offline, then `grove sync` on each.
@Suite("Sync end to end", .serialized)
struct SyncEndToEndTests {
    /// A sync server process on a free loopback port, stopped at the end.
    final class Server {
        let process = Process()
        let port: Int
        let url: String

        /// `port`: the one to listen on (a server restarted where its devices know it), else a free one.
        init(database: String, arguments extra: [String] = [], scheme: String = "http", port fixed: Int? = nil) throws {
            var lastError: Error?
            for _ in 0..<5 {
                let port = fixed ?? Int.random(in: 20_000...60_000)
                let process = Process()
                process.executableURL = try Grove.binary()
                process.arguments = ["sync-server", "--port", "\(port)", "--database", database] + extra
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                try process.run()
                // Ready when it answers (a hang guard of 2 minutes, not a timing: CI runs every suite at once).
                for _ in 0..<2400 {
                    if Self.answers(port) {
                        self.port = port
                        self.url = "\(scheme)://127.0.0.1:\(port)"
                        processHolder = process
                        return
                    }
                    if !process.isRunning { break }
                    Thread.sleep(forTimeInterval: 0.05)
                }
                process.terminate()
                lastError = CocoaError(.fileReadUnknown)
            }
            throw lastError ?? CocoaError(.fileReadUnknown)
        }

        private var processHolder: Process?

        /// Whether something accepts connections on the loopback port.
        static func answers(_ port: Int) -> Bool {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { return false }
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
        }

        func stop() {
            processHolder?.terminate()
            processHolder?.waitUntilExit()
        }
    }

    static let password = Data("correct horse battery".utf8)

    /// A sync server with the account `ada`, and two stores logged in to it.
    static func twoLinkedDevices() throws -> (Server, Grove, Grove) {
        let home = Grove()
        try FileManager.default.createDirectory(atPath: home.home, withIntermediateDirectories: true)
        let database = home.home + "/sync-server.sqlite"
        let server = try Server(database: database)
        _ = try home.runBinary(["sync-server", "user", "add", "ada", "--password-stdin", "--database", database], input: password)
        let a = Grove(), b = Grove()
        for grove in [a, b] {
            #expect(
                try grove.runBinary(["sync", "login", server.url, "--user", "ada", "--password-stdin", "--plain"], input: password).status
                    == 0)
        }
        return (server, a, b)
    }

    /// The export without its timestamp.
    static func export(_ grove: Grove) throws -> String {
        var text = try grove.runBinary("export", "--format", "json").out
        if let range = text.range(of: #""exportedAt" : "[^"]*""#, options: .regularExpression) { text.removeSubrange(range) }
        return text
    }

    @Test("two stores edited offline converge to the same export")
    func offlineEditsConverge() throws {
        let home = Grove()
        try FileManager.default.createDirectory(atPath: home.home, withIntermediateDirectories: true)
        let server = try Server(database: home.home + "/sync-server.sqlite")
        defer { server.stop() }
        let added = try home.runBinary(
            ["sync-server", "user", "add", "ada", "--password-stdin", "--database", home.home + "/sync-server.sqlite"],
            input: Self.password)
        #expect(added.status == 0, "\(added.err)")

        let a = Grove(), b = Grove()
        // Offline on both, before either ever synced.
        #expect(try a.runBinary("timer", "add", "Essay", "--duration", "25m").status == 0)
        #expect(try a.runBinary("intention", "set", "Write the intro").status == 0)
        #expect(try b.runBinary("intention", "set", "Finish chapter two").status == 0)
        #expect(try b.runBinary("focus", "log", "--start", "2026-11-20T09:00:00Z", "--end", "2026-11-20T09:25:00Z").status == 0)
        for (grove, name) in [(a, "laptop"), (b, "desktop")] {
            let login = try grove.runBinary(
                ["sync", "login", server.url, "--user", "ada", "--password-stdin", "--plain", "--device-name", name], input: Self.password)
            #expect(login.status == 0, "\(login.err)")
        }
        #expect(try a.runBinary("sync").status == 0)
        let first = try b.runBinary("sync", "--json")
        #expect(first.status == 0, "\(first.err)")
        #expect(try a.runBinary("sync").status == 0)
        // Both then edit the same timer offline: a rename on one, a to-do on the other.
        #expect(try a.runBinary("timer", "edit", "Essay", "--name", "Essay draft").status == 0)
        #expect(try b.runBinary("timer", "todo", "add", "Essay", "outline").status == 0)
        for _ in 0..<2 {
            #expect(try a.runBinary("sync").status == 0)
            #expect(try b.runBinary("sync").status == 0)
        }
        let left = try Self.export(a), right = try Self.export(b)
        #expect(left == right)
        #expect(left.contains("Essay draft") && left.contains("outline"))
        // The intention set on both for today is one, merged (the later write wins).
        let status = try JSONSerialization.jsonObject(with: Data(try a.runBinary("sync", "status", "--json").out.utf8)) as? [String: Any]
        #expect(status?["pendingMutations"] as? Int == 0)
    }

    @Test("a revoked device is refused and keeps its changes")
    func revokedDevice() throws {
        let (server, a, b) = try Self.twoLinkedDevices()
        defer { server.stop() }
        let bStatus = try JSONSerialization.jsonObject(with: Data(try b.runBinary("sync", "status", "--json").out.utf8)) as? [String: Any]
        let bID = try #require((bStatus?["device"] as? [String: Any])?["deviceId"] as? String)
        #expect(try a.runBinary("sync", "revoke", bID).status == 0)
        #expect(try b.runBinary("timer", "add", "Kept", "--duration", "5m").status == 0)
        let refused = try b.runBinary("sync")
        #expect(refused.status == 1)
        #expect(refused.err.contains("revoked"))
        #expect(try b.runBinary("timer", "list").out.contains("Kept"))
        let wrong = try Grove().runBinary(
            ["sync", "login", server.url, "--user", "ada", "--password-stdin"], input: Data("wrong password".utf8))
        #expect(wrong.status == 1 && wrong.err.contains("Unknown user or wrong password"))
        let unreachable = try Grove().runBinary(
            ["sync", "login", "http://127.0.0.1:1", "--user", "ada", "--password-stdin"], input: Self.password)
        #expect(unreachable.status == 1 && unreachable.err.contains("cannot reach the sync server"))
        // In words, once: not NIO's "connection reset (error set): Connection refused (errno: 111)".
        #expect(unreachable.err.contains("connection refused") && !unreachable.err.contains("errno"), "\(unreachable.err)")
        let malformed = try Grove().runBinary(["sync", "login", "ftp://x", "--user", "ada", "--password-stdin"], input: Self.password)
        #expect(malformed.status == 64)
    }

    @Test("Sunday chosen at a terminal syncs through a real server, and nothing written after it waits")
    func sundayThroughTheServer() throws {
        let (server, a, b) = try Self.twoLinkedDevices()
        defer { server.stop() }
        #expect(try a.runBinary("remind", "--weekly", "sun", "09:00", "--week-starts", "sun").status == 0)
        #expect(try a.runBinary("timer", "add", "After Sunday", "--duration", "5m").status == 0)
        let pushed = try a.runBinary("sync")
        #expect(pushed.status == 0 && pushed.err.isEmpty, "\(pushed.err)")
        let pulled = try b.runBinary("sync")
        #expect(pulled.status == 0 && pulled.err.isEmpty, "\(pulled.err)")
        #expect(try b.runBinary("timer", "list").out.contains("After Sunday"))
        let reminders = try b.runBinary("remind").out
        #expect(reminders.contains("Sun"), "\(reminders)")
        let status = try JSONSerialization.jsonObject(with: Data(try a.runBinary("sync", "status", "--json").out.utf8)) as? [String: Any]
        #expect(status?["pendingMutations"] as? Int == 0 && status?["refusedChanges"] as? Int == 0)
    }

    @Test("a server restored from a backup older than a device takes it back at its next sync, with nothing typed")
    func restoredServerTakesDeviceBack() throws {
        let home = Grove()
        try FileManager.default.createDirectory(atPath: home.home, withIntermediateDirectories: true)
        let database = home.home + "/sync-server.sqlite", backup = home.home + "/backup.sqlite"
        _ = try home.runBinary(["sync-server", "user", "add", "ada", "--password-stdin", "--database", database], input: Self.password)
        var server = try Server(database: database)
        let port = server.port
        let a = Grove(), b = Grove()
        #expect(
            try a.runBinary(["sync", "login", server.url, "--user", "ada", "--password-stdin", "--plain"], input: Self.password).status == 0
        )
        #expect(try a.runBinary("sync").status == 0)
        // The nightly backup (the server stopped: its file is consistent), then a device that came after.
        server.stop()
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: database + suffix) {
            try FileManager.default.copyItem(atPath: database + suffix, toPath: backup + suffix)
        }
        server = try Server(database: database, port: port)
        #expect(try b.runBinary(["sync", "login", server.url, "--user", "ada", "--password-stdin"], input: Self.password).status == 0)
        #expect(try b.runBinary("timer", "add", "Made on the late device", "--duration", "5m").status == 0)
        #expect(try b.runBinary("sync").status == 0)
        // The disk is lost; the backup comes back.
        server.stop()
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database + suffix) }
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: backup + suffix) {
            try FileManager.default.copyItem(atPath: backup + suffix, toPath: database + suffix)
        }
        server = try Server(database: database, port: port)
        defer { server.stop() }
        let synced = try b.runBinary("sync")
        #expect(synced.status == 0, "\(synced.err)")
        #expect((synced.out + synced.err).contains("took the device back"), "\(synced.out)\(synced.err)")
        #expect(try a.runBinary("sync").status == 0)
        #expect(try a.runBinary("timer", "list").out.contains("Made on the late device"))
        let devices = try a.runBinary("sync", "devices").out
        #expect(devices.contains("taken back after a server restore"), "\(devices)")
    }

    @Test("grove sync restore rebuilds the account as it stood at an instant into a new store, and refuses what it cannot")
    func restorePoint() throws {
        let (server, a, _) = try Self.twoLinkedDevices()
        defer { server.stop() }
        #expect(try a.runBinary("timer", "add", "Essay", "--duration", "25m").status == 0)
        #expect(try a.runBinary("sync").status == 0)
        // After the server wrote the timer (the sync returned), before the rename is written.
        let instant = ISO8601DateFormatter.string(
            from: Date(), timeZone: TimeZone(identifier: "UTC") ?? .current,
            formatOptions: [
                .withInternetDateTime, .withFractionalSeconds,
            ])
        #expect(try a.runBinary("timer", "edit", "Essay", "--name", "Essay draft").status == 0)
        #expect(try a.runBinary("timer", "add", "Later", "--duration", "5m").status == 0)
        #expect(try a.runBinary("sync").status == 0)
        let path = a.home + "/as-it-stood.sqlite"
        let restored = try a.runBinary("sync", "restore", "--as-of", instant, "--into", path)
        #expect(restored.status == 0, "\(restored.err)")
        let then = try a.runBinary("--database", path, "timer", "list").out
        #expect(then.contains("Essay") && !then.contains("Essay draft") && !then.contains("Later"), "\(then)")
        #expect(try a.runBinary("timer", "list").out.contains("Essay draft"))
        // A file that exists, an instant that is not one, one in the future: refused by name, nothing made.
        let exists = try a.runBinary("sync", "restore", "--as-of", instant, "--into", path)
        #expect(exists.status == 64 && exists.err.contains("--into"), "\(exists.err)")
        let other = a.home + "/other.sqlite"
        let garbage = try a.runBinary("sync", "restore", "--as-of", "last tuesday", "--into", other)
        #expect(garbage.status == 64 && garbage.err.contains("as-of"), "\(garbage.err)")
        let future = try a.runBinary("sync", "restore", "--as-of", "2999-01-01T00:00:00Z", "--into", other)
        #expect(future.status == 64 && future.err.contains("past"), "\(future.err)")
        #expect(!FileManager.default.fileExists(atPath: other))
    }
}
