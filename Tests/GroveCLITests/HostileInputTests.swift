import Foundation
import Testing

@testable import GroveCLI

/// Input from outside treated as hostile (issue 26's "nonsense input is stored instead of refused"):
/// each is refused with exit 64 naming its field and changes nothing, or made inert.
@Suite("CLI: nonsense and hostile input")
struct HostileInputTests {
    @Test("a session before 1970 or after 9999 is refused, by the CLI and by an import")
    func datesOutOfRange() async throws {
        let grove = Grove()
        for year in ["0001", "1969"] {
            let result = try await grove.run(
                "focus", "log", "--start", "\(year)-01-01 09:00", "--end", "\(year)-01-01 09:25", now: "2025-05-01T12:00:00Z")
            #expect(result.status == 64, "\(year): \(result.err)")
            #expect(result.err.contains("1970"), "\(year): \(result.err)")
        }
        let csv = grove.home + "/old.csv"
        try FileManager.default.createDirectory(atPath: grove.home, withIntermediateDirectories: true)
        try "start,end\n0000-06-01T09:00:00Z,0000-06-01T09:25:00Z\n2025-04-01T09:00:00Z,2025-04-01T09:25:00Z\n".write(
            toFile: csv, atomically: true, encoding: .utf8)
        let imported = try await grove.run("import", "--from", "csv", "--map", "start=start,end=end", csv, now: "2025-05-01T12:00:00Z")
        #expect(imported.status == 0, "\(imported.err)")
        let list = try await grove.run("focus", "list", "--json", now: "2025-05-01T12:00:00Z")
        #expect(!list.out.contains("0000-06-01"), "\(list.out.prefix(400))")
    }

    @Test("a reversed range is refused, naming --to")
    func reversedRange() async throws {
        let grove = Grove()
        let result = try await grove.run("intention", "list", "--from", "2025-12-31", "--to", "2025-01-01", now: "2025-05-01T12:00:00Z")
        #expect(result.status == 64)
        #expect(result.err.contains("to"), "\(result.err)")
    }

    @Test("an empty import file is refused, not reported as a success")
    func emptyImport() async throws {
        let grove = Grove()
        try FileManager.default.createDirectory(atPath: grove.home, withIntermediateDirectories: true)
        for (name, text) in [("empty.json", ""), ("blank.csv", "  \n\n")] {
            try text.write(toFile: grove.home + "/" + name, atomically: true, encoding: .utf8)
            let result = try await grove.run("import", grove.home + "/" + name)
            #expect(result.status == 64, "\(name): \(result.out) \(result.err)")
            #expect(result.err.contains("empty"), "\(name): \(result.err)")
        }
    }

    @Test("--database never creates missing directories")
    func databaseInMissingDirectory() async throws {
        let grove = Grove()
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("grove-missing-\(UUID().uuidString)").path
        let result = try await grove.run("now", "--database", missing + "/sub/g.sqlite")
        #expect(result.status == 64, "\(result.err)")
        #expect(result.err.contains("does not exist"), "\(result.err)")
        #expect(!FileManager.default.fileExists(atPath: missing))
        let other = try await grove.run("timer", "list", "--database", missing + "/g.sqlite")
        #expect(other.status == 64)
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    @Test("a CSV cell a spreadsheet would run as a formula is exported inert")
    func csvFormulas() async throws {
        let grove = Grove()
        for (index, tag) in ["=1+1", "@SUM(A1)"].enumerated() {
            let hour = 9 + index
            let logged = try await grove.run(
                "focus", "log", "--start", "2025-05-01 \(hour):00", "--end", "2025-05-01 \(hour):25", "--tag", tag,
                now: "2025-05-01T18:00:00Z")
            #expect(logged.status == 0, "\(tag): \(logged.err)")
        }
        let export = try await grove.run("export", "--format", "csv", now: "2025-05-01T18:00:00Z")
        #expect(export.status == 0)
        for line in export.out.split(separator: "\n").dropFirst() {
            for cell in line.split(separator: ",") {
                let text = cell.hasPrefix("\"") ? cell.dropFirst() : cell[...]
                #expect(!(text.first.map { "=+@".contains($0) } ?? false), "a live formula: \(line)")
                if text.first == "-" { #expect(Double(text) != nil || text.first != "-", "a live formula: \(line)") }
            }
        }
        #expect(export.out.contains("'=1+1"))
    }

    @Test("escape sequences in outside text never reach the terminal raw; Grove's own colours still do")
    func terminalEscapes() async throws {
        let grove = Grove()
        // What a content pack, a model answer or another device's synced row could carry.
        let hostile = "Essay\u{1B}]0;owned\u{07}\u{1B}[2J\u{1B}[1A\r\u{8}\u{9B}31m"
        let set = try await grove.run("timer", "add", hostile, "--duration", "25m")
        #expect(set.status == 0, "\(set.err)")
        let list = try await grove.run("timer", "list")
        let shown = list.out + list.err
        #expect(
            !shown.unicodeScalars.contains {
                $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x08 || $0.value == 0x9B || $0.value == 0x0D
            },
            "\(shown.debugDescription)")
        #expect(shown.contains("Essay^[]0;owned^G^[[2J"), "\(shown.debugDescription)")
        // Grove's own colour codes go through (marked as its own); the same bytes from stored text do not.
        let own = TerminalText.own("[1;32m") + "ok" + TerminalText.own("[0m") + "\n"
        #expect(TerminalText.neutralized(own) == "\u{1B}[1;32mok\u{1B}[0m\n")
        #expect(TerminalText.neutralized("\u{1B}[1;32mok\u{1B}[0m\u{1B}[8m") == "^[[1;32mok^[[0m^[[8m")
        #expect(TerminalText.neutralized("a\u{1B}[2Jb\u{7F}\u{85}") == "a^[[2Jb^?\u{FFFD}")
        // A mark stored text could carry has no nonce, or the wrong one: it stays the characters it is.
        #expect(TerminalText.neutralized("\u{E000}[8m\u{E001}x") == "\u{E000}[8m\u{E001}x")
        #expect(TerminalText.neutralized("\u{E000}zz[8m\u{E001}\u{1B}") == "\u{E000}zz[8m\u{E001}^[")
    }

    @Test("output's bytes are the text's UTF-8, whatever its characters and wherever it came from")
    func outputBytes() {
        let slice = "«Tee» und Grüße 🌳\r\n".split(separator: " ")[2]
        let texts = ["", "plain", "Grüße 🌳 \u{0}\u{FFFD}", String(slice), String(repeating: "é", count: 4_000)]
        for text in texts { #expect(Data(utf8: text) == Data(text.utf8), "\(text.debugDescription)") }
    }

    @Test("colour and conceal codes in stored text reach no command's output, coloured or not")
    func storedCodesInEveryCommand() async throws {
        let grove = Grove()
        let hostile = "Tom & Jerry <3\u{1B}[8m hidden\u{1B}[31m red\u{1B}[0m"
        #expect(try await grove.run("timer", "add", hostile, "--duration", "25m").status == 0)
        #expect(try await grove.run("intention", "set", hostile).status == 0)
        #expect(try await grove.run("focus", "start", "--length", "25m", "--tag", "essay").status == 0)
        let commands: [[String]] = [
            [], ["now"], ["now", "--format", "i3blocks"], ["timer", "list"], ["timer", "show", "Tom"], ["intention"],
            ["intention", "show"], ["focus", "status"], ["forest"], ["stats"], ["review"], ["pause", "stats"], ["sync", "status"],
        ]
        for colour in [false, true] {
            for command in commands {
                let result = try await grove.run(
                    command, terminal: TerminalTraits(color: colour, trueColor: colour, width: 100, isTTY: colour))
                let shown = result.out + result.err
                #expect(
                    !shown.unicodeScalars.contains { $0.value == 0x1B && !colour },
                    "grove \(command.joined(separator: " ")): \(shown.debugDescription)")
                #expect(
                    !shown.contains("\u{1B}[8m") && !shown.contains("\u{1B}[31m"),
                    "grove \(command.joined(separator: " ")): \(shown.debugDescription)")
            }
        }
    }

    @Test("an argument that is not UTF-8 is refused, naming its position, and nothing is stored")
    func argumentNotUTF8() throws {
        let g = Grove()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", #"exec "$0" timer add "$(printf 'Tea\377')" --duration 5m"#, try Grove.binary().path]
        process.environment = g.environment
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 64)
        #expect(text.contains("argument 3 is not UTF-8"), "\(text)")
        #expect(try g.runBinary("timer", "list", "--json").array().isEmpty)
    }

    @Test("a file that is not UTF-8 text is refused, not stored with replacement characters")
    func invalidUTF8() async throws {
        let grove = Grove()
        try FileManager.default.createDirectory(atPath: grove.home, withIntermediateDirectories: true)
        var csv = Data("start,end,tag\n2025-04-01T09:00:00Z,2025-04-01T09:25:00Z,caf".utf8)
        csv.append(contentsOf: [0xE9, 0x0A])  // Latin-1 é
        try csv.write(to: URL(fileURLWithPath: grove.home + "/latin1.csv"))
        let result = try await grove.run(
            "import", "--from", "csv", "--map", "start=start,end=end,tag=tag", grove.home + "/latin1.csv", now: "2025-05-01T12:00:00Z")
        #expect(result.status != 0 && result.err.contains("UTF-8"), "\(result.out) \(result.err)")
        // Grove's own export with a name in Latin-1.
        let other = Grove()
        try await other.run("timer", "add", "Cafe", "--duration", "5m")
        let export = try await other.run("export", "--format", "json")
        let bad = Data(export.out.utf8).replacing(Data(#""Cafe""#.utf8), with: Data(#""Caf"#.utf8) + Data([0xE9]) + Data(#"""#.utf8))
        try bad.write(to: URL(fileURLWithPath: grove.home + "/latin1.json"))
        let imported = try await grove.run("import", grove.home + "/latin1.json")
        #expect(imported.status == 64, "\(imported.out) \(imported.err)")
        #expect(!(try await grove.run("timer", "list")).out.contains("Caf"))
        let list = try await grove.run("focus", "list", "--json", now: "2025-05-01T12:00:00Z")
        #expect(!list.out.contains("\u{FFFD}"))
    }
}
