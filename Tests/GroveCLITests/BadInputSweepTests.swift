import Foundation
import GRDB
import GroveCore
import GroveTestSupport
import Testing

@testable import GroveStore

/// Bad values into every option and argument of every subcommand, read from the command tree itself
/// (`--experimental-dump-help`), so that a new option is swept without anyone listing it here.
///
/// For each value a command either accepts it (exit 0) or refuses it with exit 64, exactly one
/// `grove:` line on stderr, no SQL in it, and the store unchanged. Never a trap, never exit 1.
@Suite("CLI: bad input into every option of every subcommand", .heavy)
struct BadInputSweepTests {
    /// Values that break some rule somewhere: numbers out of range or not finite, malformed times,
    /// days and colours, paths to devices and traversals, SQL, huge and odd text.
    static let badValues = [
        "", "-1", "nan", "inf", "1e308", "99999999999999999999", "abc", "2025-02-30", "../../../dev/zero", "'; DROP TABLE timer; --",
        String(repeating: "x", count: 5000), "👨‍👩‍👧‍👦", "\u{1}\u{7F}",
    ]

    /// Commands that wait for a person or start a server: exercised by their own tests.
    static let interactive: Set<String> = ["serve", "focus run", "timer run", "pause gate", "help", "sync-server", "sync-server run"]

    /// A valid value for each required argument, so that one bad value at a time is what is tried.
    static func valid(_ command: String, _ argument: String, home: String) -> String {
        switch (command, argument) {
        case ("theme add", "text"): return "#FFFFFF"
        case ("theme add", "background"): return "#000000"
        case ("content add", "text"): return String(repeating: "Breathe in, breathe out, and notice the moment. ", count: 2)
        case ("content import", "file"), ("import", "file"): return home + "/valid.json"
        case (_, "timer"): return "Tea"
        case (_, "todo"): return "1"
        case (_, "position"): return "1"
        case (_, "duration"): return command == "apps duration" ? "20" : "5m"
        case (_, "start"): return "2025-05-01 09:00"
        case (_, "end"): return "2025-05-01 09:25"
        case (_, "id"): return command.hasPrefix("apps") ? "youtube" : "00000000-0000-4000-8000-000000000001"
        case (_, "scheme"): return "sweep://"
        case (_, "type"): return "quote"
        case (_, "category"): return "nature"
        case (_, "theme"): return "Serene"
        default: return "sweep"
        }
    }

    struct Argument { var name: String; var kind: String; var isOptional: Bool; var isOption: Bool }
    struct Command { var path: [String]; var arguments: [Argument] }

    /// The command tree, read once per test run: every swept command finds its spec here instead of
    /// launching the binary again.
    static let tree = Result { try readCommands() }

    static func commands() throws -> [Command] { try tree.get() }

    static func readCommands() throws -> [Command] {
        let dump = try Grove().runBinary("--experimental-dump-help")
        let root = try #require(try dump.object()["command"] as? [String: Any])
        var found: [Command] = []
        func walk(_ node: [String: Any], _ path: [String]) {
            let subcommands = node["subcommands"] as? [[String: Any]] ?? []
            if subcommands.isEmpty || node["arguments"] != nil && !(node["arguments"] as? [Any] ?? []).isEmpty && path.count > 0 {
                let arguments = (node["arguments"] as? [[String: Any]] ?? []).compactMap { a -> Argument? in
                    let kind = a["kind"] as? String ?? ""
                    let name = (a["names"] as? [[String: Any]])?.first?["name"] as? String ?? a["valueName"] as? String ?? ""
                    guard kind != "flag", !["database", "h", "help"].contains(name) else { return nil }
                    return Argument(name: name, kind: kind, isOptional: a["isOptional"] as? Bool ?? true, isOption: kind == "option")
                }
                if !path.isEmpty { found.append(Command(path: path, arguments: arguments)) }
            }
            for sub in subcommands { walk(sub, path + [sub["commandName"] as? String ?? ""]) }
        }
        walk(root, [])
        return found.filter { !interactive.contains($0.path.joined(separator: " ")) }
    }

    /// A store with a timer "Tea" (one to-do), an intention and a content pack file next to it.
    static func prepared() async throws -> Grove {
        let grove = Grove(now: "2025-05-01T12:00:00Z")
        try await grove.run("timer", "add", "Tea", "--duration", "3m", "--todo", "Kettle")
        try await grove.run("intention", "set", "Read a chapter")
        let pack =
            #"[{"id":"sweep-1","type":"quote","category":"nature","text":"The quiet of the forest is the sound of attention returning to itself."}]"#
        try Data(pack.utf8).write(to: URL(fileURLWithPath: grove.home + "/valid.json"))
        return grove
    }

    /// A digest of every row of every table: what the export says, read in a millisecond instead of an
    /// export's twenty (SQLite's own bookkeeping, which changes on every open, is left out).
    static func fingerprint(_ store: AppDatabase) throws -> [String: Int] {
        try store.writer.read { db in
            var digests: [String: Int] = [:]
            for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'") {
                var hasher = Hasher()
                let rows = try Row.fetchCursor(db, sql: "SELECT * FROM \(table) ORDER BY 1")
                while let row = try rows.next() { for value in row.databaseValues { hasher.combine(value) } }
                digests[table] = hasher.finalize()
            }
            return digests
        }
    }

    static let sqlWords = ["SELECT ", "INSERT ", "UPDATE ", "CHECK constraint", "SQLite error", "constraint failed", "sqlite_"]

    @Test(arguments: try commands().map { $0.path.joined(separator: " ") })
    func everyOptionRefusesBadValuesCleanly(_ command: String) async throws {
        let spec = try #require(try Self.commands().first { $0.path.joined(separator: " ") == command })
        let grove = try await Self.prepared()
        // A refused command must leave every row of the store as it was: what an unchanged export
        // says, read straight from the tables (an export after each of a thousand runs is slow).
        // One connection pool of the test's own, kept open: each read sees the latest commit.
        let store = try AppDatabase.open(
            path: grove.home + "/grove.sqlite", environment: .test(clock: TestClock(Date(timeIntervalSince1970: 0))))
        var before = try Self.fingerprint(store)
        var tried = 0
        for target in spec.arguments {
            for bad in Self.badValues {
                // Options first, then "--" and the positionals in their declared order, so that a
                // value like "-1" is read as a value, not as an option.
                var options: [String] = [], positionals: [String] = []
                for argument in spec.arguments {
                    let value: String
                    if argument.name == target.name {
                        value = bad
                    } else if !argument.isOptional {
                        value = Self.valid(command, argument.name, home: grove.home)
                    } else {
                        continue
                    }
                    if argument.isOption { options += ["--\(argument.name)", value] } else { positionals.append(value) }
                }
                let arguments = spec.path + options + (positionals.isEmpty ? [] : ["--"] + positionals)
                let result = try await grove.run(arguments, now: "2025-05-01T12:00:00Z")
                tried += 1
                let shown = "\(arguments.joined(separator: " ").prefix(120))"
                #expect(result.status == 0 || result.status == 64, "exit \(result.status) for `grove \(shown)`: \(result.err.prefix(300))")
                if result.status == 0 {
                    before = try Self.fingerprint(store)
                    continue
                }
                let lines = result.err.split(separator: "\n", omittingEmptySubsequences: true)
                #expect(
                    lines.count == 1 && lines.first?.hasPrefix("grove: ") == true,
                    "one grove: line for `grove \(shown)`, got \(result.err.prefix(300))")
                #expect(!Self.sqlWords.contains { result.err.contains($0) }, "no SQL for `grove \(shown)`: \(result.err.prefix(300))")
                let after = try Self.fingerprint(store)
                #expect(after == before, "`grove \(shown)` changed the store although it was refused")
                before = after
            }
        }
        #expect(tried == spec.arguments.count * Self.badValues.count)
        // "../../../dev/zero" reached /dev/zero from the working directory: it must still be the device.
        #expect(
            try FileManager.default.attributesOfItem(atPath: "/dev/zero")[.type] as? FileAttributeType == .typeCharacterSpecial,
            "`grove \(command)` replaced /dev/zero")
    }

    /// The environment is input too: a terminal width of 1 or of eleven digits, or nonsense, draws
    /// every report without trapping.
    @Test func everyReportDrawsAtAnyTerminalWidth() async throws {
        let grove = try await Self.prepared()
        try await grove.run("focus", "log", "--start", "2025-05-01 09:00", "--end", "2025-05-01 09:25")
        for columns in ["1", "10", "25", "31", "99999999999", "-5", "abc"] {
            for command in [
                [], ["stats"], ["forest"], ["intention", "now"], ["pause", "stats"], ["focus", "status"], ["timer", "list"], ["remind"],
                ["now"],
            ] {
                let result = try await grove.run(command, now: "2025-05-01T12:00:00Z", environment: ["COLUMNS": columns])
                #expect(result.status == 0, "COLUMNS=\(columns) grove \(command.joined(separator: " ")): \(result.err.prefix(200))")
            }
        }
    }
}
