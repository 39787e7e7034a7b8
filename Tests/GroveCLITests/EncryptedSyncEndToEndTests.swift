import Foundation
import GroveCore
import GroveStore
import Testing

/// An encrypted account with real processes: a thousand distinctive strings planted through the CLI
/// reach the other device and appear nowhere in the server's files — nor does a planted intention's
/// period or an imported session's start, through their ids.
@Suite("Encrypted sync end to end", .serialized)
struct EncryptedSyncEndToEndTests {
    static let passphrase = Data("a long and private passphrase".utf8)

    /// From each "zq" in `bytes` (lowercased), the letters and digits that follow it; and every UUID
    /// (lowercased): one pass, whatever the files' size. A planted string is found if it begins one of
    /// those runs — whatever bytes SQLite's record format puts right before or after it.
    static func scan(_ bytes: Data) -> (words: [String], uuids: Set<String>) {
        var words: [String] = [], uuids = Set<String>()
        func isWord(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) || (0x61...0x7A).contains(byte) }
        func isHex(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte) }
        let lowered = bytes.map { (0x41...0x5A).contains($0) ? $0 + 32 : $0 }
        var index = 0
        while index + 1 < lowered.count {
            if lowered[index] == UInt8(ascii: "z"), lowered[index + 1] == UInt8(ascii: "q") {
                var end = index
                while end < lowered.count, isWord(lowered[end]) { end += 1 }
                words.append(String(decoding: lowered[index..<end], as: UTF8.self))
            }
            index += 1
        }
        let shape = [8, 4, 4, 4, 12]
        var start = 0
        while start + 36 <= lowered.count {
            var position = start, ok = true
            for (part, length) in shape.enumerated() {
                for offset in 0..<length where !isHex(lowered[position + offset]) { ok = false }
                position += length
                if !ok { break }
                if part < 4 {
                    if lowered[position] != UInt8(ascii: "-") { ok = false; break }
                    position += 1
                }
            }
            if ok {
                uuids.insert(String(decoding: lowered[start..<start + 36], as: UTF8.self))
                start += 36
            } else {
                start += 1
            }
        }
        return (words, uuids)
    }

    /// A sync server on its own SQLite file (returned, for the byte scans) with `users`, each with
    /// `SyncEndToEndTests.password`.
    static func server(users: [String] = ["ada"]) throws -> (SyncEndToEndTests.Server, database: String) {
        let home = Grove()
        try FileManager.default.createDirectory(atPath: home.home, withIntermediateDirectories: true)
        let database = home.home + "/sync-server.sqlite"
        let server = try SyncEndToEndTests.Server(database: database)
        for user in users {
            _ = try home.runBinary(
                ["sync-server", "user", "add", user, "--password-stdin", "--database", database], input: SyncEndToEndTests.password)
        }
        return (server, database)
    }

    @Test("a thousand planted strings sync sealed: none of them, no period and no start time in the server's bytes")
    func nothingPlainOnTheServer() throws {
        let (server, database) = try Self.server()
        defer { server.stop() }
        let a = Grove(now: "2026-11-24T12:00:00Z"), b = Grove(now: "2026-11-24T12:00:00Z")
        // Device names are among what the server sees: a's is the scan's proof that it finds plain text.
        for (grove, name) in [(a, "zqdevicename1"), (b, "desktop")] {
            let login = try grove.runBinary(
                ["sync", "login", server.url, "--user", "ada", "--password-stdin", "--device-name", name], input: SyncEndToEndTests.password
            )
            #expect(login.status == 0, "\(login.err)")
        }
        let encrypted = try a.runBinary(["sync", "encrypt", "--passphrase-stdin"], input: Self.passphrase)
        #expect(encrypted.status == 0 && encrypted.out.contains("Recovery code"), "\(encrypted.err)")

        // Distinctive strings: a token no encoding of anything else contains.
        var planted: [String] = []
        func token(_ kind: String) -> String {
            let text = "zq\(kind)\(planted.count)x\(UUID().uuidString.prefix(6).lowercased())"
            planted.append(text)
            return text
        }
        for _ in 0..<10 {
            var arguments = ["timer", "add", token("timer"), "--duration", "10m", "--notes", token("notes")]
            for _ in 0..<60 { arguments += ["--todo", token("todo")] }
            #expect(try a.runBinary(arguments).status == 0)
        }
        var periods: [(IntentionScope, String)] = []
        for day in 1...10 {
            let date = String(format: "2026-11-%02d", day)
            #expect(try a.runBinary("intention", "set", token("intention"), "--date", date).status == 0)
            periods.append((.day, date))
        }
        for (scope, date) in [("week", "2026-11-02"), ("week", "2026-11-09"), ("month", "2026-10-01"), ("month", "2026-11-01")] {
            #expect(try a.runBinary("intention", "set", token("intention"), "--scope", scope, "--date", date).status == 0)
            periods.append((IntentionScope(rawValue: scope) ?? .day, date))
        }
        for _ in 0..<3 {
            #expect(try a.runBinary("theme", "add", token("theme"), "--background", "#112233", "--text", "#FFFFFF").status == 0)
        }
        for _ in 0..<5 {
            let text = token("quote") + " is a quiet sentence long enough to count as content"
            #expect(try a.runBinary("content", "add", "--type", "quote", "--category", "nature", "--text", text).status == 0)
        }
        // Imported sessions, each with a tag of its own (their ids are where their starts would show).
        var starts: [Int64] = []
        var intervals: [String] = []
        for index in 0..<380 {
            let start = Int64(1_760_000_000) + Int64(index) * 7200
            starts.append(start * 1000)
            let from = Date(timeIntervalSince1970: TimeInterval(start)), to = from.addingTimeInterval(1500)
            let format = { (date: Date) in
                let text = GroveExport.formatInstant(date).replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: "")
                return text.replacingOccurrences(of: ".000", with: "")
            }
            intervals.append(#"{"id":\#(index + 1),"start":"\#(format(from))","end":"\#(format(to))","tags":["\#(token("tag"))"]}"#)
        }
        let file = a.home + "/timew.json"
        try Data(("[" + intervals.joined(separator: ",") + "]").utf8).write(to: URL(fileURLWithPath: file))
        let imported = try a.runBinary("import", "--from", "timewarrior", file)
        #expect(imported.status == 0, "\(imported.err)")
        #expect(planted.count >= 1000)

        #expect(try a.runBinary("sync").status == 0)
        // The other device: locked until the passphrase, then everything arrives.
        #expect(try b.runBinary("sync").err.contains("grove sync unlock"))
        let locked = try b.runBinary("sync", "status").out
        #expect(locked.contains("Encrypted: yes, on another device") && !locked.contains("values travel in plain"), "\(locked)")
        #expect(try b.runBinary(["sync", "unlock", "--passphrase-stdin"], input: Self.passphrase).status == 0)
        let code = try b.runBinary(["sync", "recovery-code", "--passphrase-stdin", "--json"], input: Self.passphrase)
        #expect(code.status == 0 && code.out.contains("recoveryCode"), "\(code.out) \(code.err)")
        let synced = try b.runBinary("sync")
        #expect(synced.status == 0, "\(synced.err)")
        let export = try b.runBinary("export", "--format", "json").out
        let missing = planted.filter { !export.contains($0) }
        #expect(missing.isEmpty, "\(missing.count) planted strings did not reach the other device: \(missing.prefix(5))")
        // A third device in one step, with one secret: the passphrase is the login now (the password is not).
        let c = Grove(now: "2026-11-24T12:00:00Z")
        let refused = try c.runBinary(
            ["sync", "login", server.url, "--user", "ada", "--password-stdin"], input: SyncEndToEndTests.password)
        #expect(refused.status != 0, "the old password still logs in: \(refused.out)")
        let joined = try c.runBinary(["sync", "login", server.url, "--user", "ada", "--password-stdin"], input: Self.passphrase)
        #expect(joined.status == 0 && joined.out.contains("Unlocked with key"), "\(joined.out) \(joined.err)")
        #expect(try c.runBinary("sync").status == 0)
        #expect(try SyncEndToEndTests.export(c) == SyncEndToEndTests.export(b))
        // Every face names the key; logging out takes it with the token.
        let status = try JSONSerialization.jsonObject(with: Data(try c.runBinary("sync", "status", "--json").out.utf8)) as? [String: Any]
        let keyId = try #require(status?["keyId"] as? String)
        #expect(try c.runBinary("sync", "status").out.contains("key \(keyId)"))
        // A device lost: a new key from b. c, offline meanwhile, makes a timer, stops before sending
        // it, says why, and — unlocked once — sends it under the new key; everything still opens.
        let renewed = try b.runBinary(["sync", "new-key", "--passphrase-stdin", "--json"], input: Self.passphrase)
        let made = try JSONSerialization.jsonObject(with: Data(renewed.out.utf8)) as? [String: String]
        #expect(renewed.status == 0 && made?["replaced"] == keyId && made?["keyId"] != keyId, "\(renewed.out) \(renewed.err)")
        #expect(try c.runBinary("timer", "add", token("timer"), "--duration", "5m").status == 0)
        let stopped = try c.runBinary("sync")
        #expect(stopped.status != 0 && stopped.err.contains("grove sync unlock"), "\(stopped.err)")
        #expect(try c.runBinary("sync", "status").out.contains("replaced on another device"))
        #expect(try c.runBinary(["sync", "unlock", "--passphrase-stdin"], input: Self.passphrase).status == 0)
        #expect(try c.runBinary("sync").status == 0)
        #expect(try b.runBinary("sync").status == 0)
        #expect(try SyncEndToEndTests.export(c) == SyncEndToEndTests.export(b))
        let keyFile = c.home + "/grove.sqlite.sync-key"
        #expect(FileManager.default.fileExists(atPath: keyFile))
        #expect(try c.runBinary("sync", "logout").status == 0)
        #expect(!FileManager.default.fileExists(atPath: keyFile))

        // The server's files, byte by byte (the database, its WAL and shared memory).
        var bytes = Data()
        for suffix in ["", "-wal", "-shm"] { bytes += FileManager.default.contents(atPath: database + suffix) ?? Data() }
        let (words, uuids) = Self.scan(bytes)
        let found = planted.filter { token in words.contains { $0.hasPrefix(token) } }
        #expect(found.isEmpty, "\(found.count) planted strings are in the server's files: \(found.prefix(5))")
        #expect(
            words.contains { $0.hasPrefix("zqdevicename1") } && !uuids.isEmpty, "the scan finds what is in plain: a device name, the ids")
        // No period's plain intention id, and no imported session's start at the head of an id.
        // (Weeks starting on Sunday and on Monday: whichever the store used.)
        for (scope, date) in periods {
            for firstWeekday in [1, 2] {
                let calendar = ZonedCalendar(timeZone: TimeZone(identifier: "UTC") ?? .current, firstWeekday: firstWeekday)
                let day = try #require(LocalDay(date))
                let start = scope.period(containing: day, calendar: calendar).lowerBound
                let plain = IntentionID.forPeriod(scope: scope, start: start).uuidString.lowercased()
                #expect(!uuids.contains(plain), "the \(scope) of \(date) shows in its plain id")
            }
        }
        for start in starts {
            let key = UInt64(bitPattern: start &+ (1 << 47)) & 0xFFFF_FFFF_FFFF
            let head = String(format: "%08x-%04x", UInt32(truncatingIfNeeded: key >> 16), UInt16(truncatingIfNeeded: key))
            #expect(!uuids.contains { $0.hasPrefix(head) }, "an imported session's start shows in an id (\(head))")
        }
    }

    @Test("a new account is encrypted by default: nothing leaves a device until it is, and a plain one with data goes on in plain")
    func encryptedByDefault() throws {
        let (server, database) = try Self.server(users: ["ada", "bob"])
        defer { server.stop() }
        let a = Grove(now: "2026-11-24T12:00:00Z")
        #expect(try a.runBinary("timer", "add", "zqnotsentyet", "--duration", "25m").status == 0)
        let login = try a.runBinary(["sync", "login", server.url, "--user", "ada", "--password-stdin"], input: SyncEndToEndTests.password)
        #expect(login.status == 0 && login.out.contains("The account is new"), "\(login.out) \(login.err)")
        // Syncing before the account has a key sends nothing, and says what to do.
        let refused = try a.runBinary("sync")
        #expect(refused.status == 1 && refused.err.contains("grove sync encrypt"), "\(refused.err)")
        #expect(try a.runBinary("sync", "status").out.contains("Encrypted: not yet"))
        var bytes = Data()
        for suffix in ["", "-wal"] { bytes += FileManager.default.contents(atPath: database + suffix) ?? Data() }
        #expect(!Self.scan(bytes).words.contains { $0.hasPrefix("zqnotsentyet") }, "a plain value reached the server before the key")
        // One command encrypts it; the value goes out sealed only.
        #expect(try a.runBinary(["sync", "encrypt", "--passphrase-stdin"], input: Self.passphrase).status == 0)
        bytes = Data()
        for suffix in ["", "-wal"] { bytes += FileManager.default.contents(atPath: database + suffix) ?? Data() }
        #expect(!Self.scan(bytes).words.contains { $0.hasPrefix("zqnotsentyet") })

        // --plain is a choice said once; a second device of that account joins in plain with nothing said.
        let b1 = Grove(now: "2026-11-24T12:00:00Z"), b2 = Grove(now: "2026-11-24T12:00:00Z")
        #expect(try b1.runBinary("timer", "add", "Plain on purpose", "--duration", "5m").status == 0)
        let both = try b1.runBinary(
            ["sync", "login", server.url, "--user", "bob", "--password-stdin", "--plain", "--passphrase-stdin"],
            input: SyncEndToEndTests.password)
        #expect(both.status == 64 && both.err.contains("--plain"), "\(both.err)")
        #expect(
            try b1.runBinary(
                ["sync", "login", server.url, "--user", "bob", "--password-stdin", "--plain"], input: SyncEndToEndTests.password
            )
            .status == 0)
        #expect(try b1.runBinary("sync").status == 0)
        #expect(
            try b2.runBinary(["sync", "login", server.url, "--user", "bob", "--password-stdin"], input: SyncEndToEndTests.password).status
                == 0)
        let joined = try b2.runBinary("sync")
        #expect(joined.status == 0 && joined.err.contains("syncs unencrypted"), "\(joined.err)")
        #expect(try b2.runBinary("timer", "list").out.contains("Plain on purpose"))
    }

    @Test("grove sync restore --apply takes an encrypted account back on every device, keeps history, puts unsent changes on top")
    func restoreMadeCurrent() throws {
        let (server, _) = try Self.server()
        defer { server.stop() }
        let a = Grove(), b = Grove()
        let first = SyncEndToEndTests.password + Data("\n".utf8) + Self.passphrase
        // A login that encrypts shows the recovery code once: in a JSON answer too.
        let login = try a.runBinary(
            ["sync", "login", server.url, "--user", "ada", "--password-stdin", "--passphrase-stdin", "--json"], input: first)
        let answer = try JSONSerialization.jsonObject(with: Data(login.out.utf8)) as? [String: Any]
        #expect(login.status == 0 && answer?["user"] as? String == "ada", "\(login.out) \(login.err)")
        #expect((answer?["recoveryCode"] as? String)?.split(separator: " ").count == 17, "\(login.out)")
        #expect(try a.runBinary("timer", "add", "Essay", "--duration", "25m").status == 0)
        #expect(try a.runBinary("timer", "add", "Reading", "--duration", "5m", "--todo", "chapter one").status == 0)
        #expect(try a.runBinary("sync").status == 0)
        let instant = ISO8601DateFormatter.string(
            from: Date(), timeZone: TimeZone(identifier: "UTC") ?? .current, formatOptions: [.withInternetDateTime, .withFractionalSeconds])
        #expect(try a.runBinary("timer", "edit", "Essay", "--name", "Essay, ruined").status == 0)
        #expect(try a.runBinary("timer", "rm", "Reading").status == 0)
        #expect(try a.runBinary("timer", "add", "Made later", "--duration", "5m").status == 0)
        let stamp = { (ago: Double) in
            ISO8601DateFormatter.string(
                from: Date().addingTimeInterval(-ago), timeZone: TimeZone(identifier: "UTC") ?? .current,
                formatOptions: [.withInternetDateTime])
        }
        #expect(try a.runBinary("focus", "log", "--start", stamp(3000), "--end", stamp(1500)).status == 0)
        #expect(try a.runBinary("sync").status == 0)
        #expect(try b.runBinary(["sync", "login", server.url, "--user", "ada", "--password-stdin"], input: Self.passphrase).status == 0)
        #expect(try b.runBinary("sync").status == 0)
        // b, not synced since: a change of its own.
        #expect(try b.runBinary("timer", "add", "Offline on b", "--duration", "10m").status == 0)

        // Asked first: what it would change; nothing changes until --yes.
        let asked = try a.runBinary("sync", "restore", "--as-of", instant, "--apply")
        #expect(asked.status == 0 && asked.out.contains("Add --yes"), "\(asked.out) \(asked.err)")
        #expect(try a.runBinary("timer", "list").out.contains("Essay, ruined"))
        let done = try a.runBinary("sync", "restore", "--as-of", instant, "--apply", "--yes", "--json")
        #expect(done.status == 0, "\(done.err)")
        let summary = try JSONSerialization.jsonObject(with: Data(done.out.utf8)) as? [String: Any]
        #expect(summary?["applied"] as? Bool == true && summary?["removed"] as? Int == 1, "\(done.out)")
        let onB = try b.runBinary("sync")
        #expect(onB.status == 0 && onB.err.contains("went on top"), "\(onB.err)")
        #expect(try a.runBinary("sync").status == 0)
        for device in [a, b] {
            let timers = try device.runBinary("timer", "list").out
            #expect(timers.contains("Essay") && !timers.contains("ruined") && timers.contains("Reading"), "\(timers)")
            #expect(timers.contains("0/1 done") && timers.contains("Offline on b") && !timers.contains("Made later"), "\(timers)")
            // The session logged after the instant is history: it stays.
            #expect(try device.runBinary("export", "--format", "json").out.contains("\"completed\""), "a session went with the restore")
        }
        // Refused by name: both ways at once, neither, --yes alone.
        #expect(try a.runBinary("sync", "restore", "--as-of", instant, "--apply", "--into", a.home + "/x.sqlite").status == 64)
        #expect(try a.runBinary("sync", "restore", "--as-of", instant).status == 64)
        #expect(try a.runBinary("sync", "restore", "--as-of", instant, "--into", a.home + "/y.sqlite", "--yes").status == 64)
    }
}
