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
        let text = try completeInBash(g, "grove timer start De")
        #expect(text.split(separator: "\n").map(String.init) == ["Deep work"] || text.contains("Deep\\ work"), "\(text)")
    }

    /// `grove pause youtube` is `grove pause gate youtube`: TAB after `grove pause` offers the app ids
    /// beside the subcommands, in every shell's script.
    @Test("grove pause <TAB> offers the app ids the default subcommand takes")
    func pauseOffersAppIds() throws {
        let g = Grove()
        #expect(try g.runBinary("apps", "add", "mastodon", "--name", "Mastodon", "--url", "https://mastodon.social/").status == 0)
        let offered = try completeInBash(g, "grove pause ").split(separator: "\n").map(String.init)
        #expect(offered.contains("youtube") && offered.contains("mastodon") && offered.contains("stats"), "\(offered)")
        #expect(try completeInBash(g, "grove pause mas") == "mastodon\n")
        let zsh = try g.runBinary("--generate-completion-script", "zsh").out
        #expect(zsh.contains("_describe -V subcommand subcommands && ret=0\n        __grove_custom_complete ---completion pause gate"))
        let fish = try g.runBinary("--generate-completion-script", "fish").out
        #expect(fish.contains("positional \"grove pause\" -eq 1' -fka '(__grove_custom_completion ---completion pause gate"))
    }

    /// What bash offers for `line` (the cursor at its end) with the generated script loaded.
    private func completeInBash(_ g: Grove, _ line: String) throws -> String {
        let script = try g.runBinary("--generate-completion-script", "bash").out
        let file = g.home + "/grove.bash"
        try script.write(toFile: file, atomically: true, encoding: .utf8)
        var words = line.split(separator: " ").map { "'\($0)'" }
        if line.hasSuffix(" ") { words.append("''") }
        let probe = """
            source '\(file)'
            COMP_WORDS=(\(words.joined(separator: " "))); COMP_CWORD=\(words.count - 1); COMP_LINE='\(line)'; COMP_POINT=${#COMP_LINE}
            _grove grove "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"; printf '%s\\n' "${COMPREPLY[@]}"
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
        return text
    }
}
