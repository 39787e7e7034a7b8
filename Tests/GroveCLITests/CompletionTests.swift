import Foundation
import Testing

/// TAB in a shell: the names in the store (timers, apps, themes, tags), asked of the real binary the
/// way the generated scripts ask it (`grove ---completion …`), and once through real bash.
@Suite("Shell completions read the store")
struct CompletionTests {
    /// What `grove` offers for the word being typed (`typed`) at the end of `words`.
    static func offered(_ g: Grove, _ command: [String], argument: String, words: [String], typed: String) throws -> [String] {
        let line = ["grove"] + words + [typed]
        let result = try g.runBinary(["---completion"] + command + ["--", argument, "\(line.count - 1)", "\(typed.count)"] + line)
        return result.out.split(separator: "\n").map(String.init)
    }

    @Test("timer names, app ids, themes and tags, filtered by what is typed; none without a store")
    func namesFromTheStore() throws {
        let g = Grove()
        #expect(try g.runBinary("timer", "add", "Essay", "--duration", "25m").status == 0)
        #expect(try g.runBinary("timer", "add", "Email batch", "--duration", "10m").status == 0)
        #expect(
            try g.runBinary("focus", "log", "--start", "2026-11-20T09:00:00Z", "--end", "2026-11-20T09:25:00Z", "--tag", "writing").status
                == 0)
        #expect(try g.runBinary("apps", "add", "mastodon", "--name", "Mastodon", "--url", "https://mastodon.social").status == 0)

        #expect(
            try Self.offered(g, ["timer", "start"], argument: "positional@0", words: ["timer", "start"], typed: "").sorted() == [
                "Email batch", "Essay",
            ])
        #expect(
            try Self.offered(g, ["timer", "start"], argument: "positional@0", words: ["timer", "start"], typed: "Em") == ["Email batch"])
        #expect(
            try Self.offered(g, ["timer", "todo", "add"], argument: "positional@0", words: ["timer", "todo", "add"], typed: "Es") == [
                "Essay"
            ])
        #expect(try Self.offered(g, ["pause", "gate"], argument: "positional@0", words: ["pause", "gate"], typed: "ma") == ["mastodon"])
        #expect(
            try Self.offered(g, ["apps", "disable"], argument: "positional@0", words: ["apps", "disable"], typed: "you") == ["youtube"])
        #expect(
            try Self.offered(g, ["focus", "start"], argument: "--tag", words: ["focus", "start", "--tag"], typed: "wr") == ["writing"])
        #expect(
            try Self.offered(g, ["theme", "default"], argument: "positional@0", words: ["theme", "default"], typed: "Oc") == ["Ocean"])

        // Another store named on the line is the one read; a store that does not exist is not created.
        let other = Grove()
        let elsewhere = other.home + "/elsewhere.sqlite"
        try FileManager.default.createDirectory(atPath: other.home, withIntermediateDirectories: true)
        #expect(try g.runBinary("--database", elsewhere, "timer", "add", "Other store", "--duration", "5m").status == 0)
        #expect(
            try Self.offered(
                g, ["timer", "start"], argument: "positional@0", words: ["timer", "start", "--database", elsewhere], typed: "")
                == ["Other store"])
        let empty = Grove()
        #expect(try Self.offered(empty, ["timer", "start"], argument: "positional@0", words: ["timer", "start"], typed: "") == [])
        #expect(!FileManager.default.fileExists(atPath: empty.home + "/grove.sqlite"), "completion creates no store")
    }

    @Test("through bash: the generated script offers the store's timer names")
    func bash() throws {
        let g = Grove()
        #expect(try g.runBinary("timer", "add", "Deep work", "--duration", "50m").status == 0)
        let script = try g.runBinary("--generate-completion-script", "bash").out
        let file = g.home + "/grove.bash"
        try script.write(toFile: file, atomically: true, encoding: .utf8)
        let probe = """
            source '\(file)'
            COMP_WORDS=(grove timer start De); COMP_CWORD=3; COMP_LINE='grove timer start De'; COMP_POINT=${#COMP_LINE}
            _grove; printf '%s\\n' "${COMPREPLY[@]}"
            """
        let bin = try Grove.binary().deletingLastPathComponent().path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", probe]
        process.environment = ["PATH": bin + ":/usr/bin:/bin", "GROVE_HOME": g.home, "HOME": g.home]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(text.split(separator: "\n").map(String.init) == ["Deep work"] || text.contains("Deep\\ work"), "\(text)")
    }
}
