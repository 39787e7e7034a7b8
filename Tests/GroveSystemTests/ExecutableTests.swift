import Foundation
import Testing

@testable import GroveSystem

@Suite("The desktop: programs on the PATH and notifications")
struct ExecutableTests {
    @Test func findsProgramsOnThePathAndNothingElse() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("grove-path-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let program = dir.appendingPathComponent("notify-send")
        try Data("#!/bin/sh\nexit 0\n".utf8).write(to: program)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: program.path)
        let plain = dir.appendingPathComponent("not-executable")
        try Data().write(to: plain)
        let environment = ["PATH": "/nonexistent:\(dir.path)"]
        #expect(Executable.find("notify-send", environment: environment) == program.path)
        #expect(Executable.find("not-executable", environment: environment) == nil)
        #expect(Executable.find("notify-send", environment: [:]) == nil)
        // A notifier with a working notify-send sends; without one it says so and does nothing.
        #expect(DesktopNotifier(environment: environment).send(title: "Grove", body: "Tree planted"))
        let none = DesktopNotifier(environment: ["PATH": "/nonexistent"])
        #expect(!none.isAvailable)
        #expect(!none.send(title: "Grove", body: "nothing happens"))
    }
}

@Suite("Desktop launchers: Exec lines and shell words")
struct DesktopLauncherTests {
    /// What a desktop reads back from an `Exec=` value: the string escapes undone, then the words.
    static func parseExec(_ value: String) throws -> [String] {
        var unescaped = "", pending = false
        for character in value {
            if pending {
                switch character {
                case "n": unescaped += "\n"
                case "t": unescaped += "\t"
                case "r": unescaped += "\r"
                default: unescaped.append(character)
                }
                pending = false
            } else if character == "\\" {
                pending = true
            } else {
                unescaped.append(character)
            }
        }
        return try ShellWords.split(unescaped).map { $0.replacingOccurrences(of: "%%", with: "%") }
    }

    @Test func anExecLineGivesBackExactlyTheArgumentsWhateverTheyHold() throws {
        let awkward = [
            "firefox", "https://www.youtube.com/watch?v=a&t=1", "two words", "quote\"d", "back\\slash", "$HOME", "`id`", "100%", "%u",
            "it's", "", "tab\there",
        ]
        let launcher = DesktopLauncher(appId: "youtube", name: "YouTube", command: awkward, grove: "/usr/local/bin/grove")
        let exec = try #require(launcher.text.split(separator: "\n").first { $0.hasPrefix("Exec=") }).dropFirst(5)
        #expect(try Self.parseExec(String(exec)) == ["/usr/local/bin/grove", "pause", "youtube", "--"] + awkward)
        #expect(launcher.text.contains("Terminal=true") && launcher.text.hasPrefix("[Desktop Entry]\nType=Application\n"))
        #expect(launcher.text.contains(" %%u ") && launcher.text.contains("100%%"), "percent signs are not field codes")
        // The store, named for a menu that runs without the shell's variables, whatever its path holds.
        let stored = DesktopLauncher(appId: "hn", name: "HN", command: ["true"], grove: "/g", database: "/home/a b/100% grove.sqlite")
        let storedExec = try #require(stored.text.split(separator: "\n").first { $0.hasPrefix("Exec=") }).dropFirst(5)
        #expect(try Self.parseExec(String(storedExec)) == ["/g", "pause", "hn", "--database", "/home/a b/100% grove.sqlite", "--", "true"])
        // A name with a newline cannot break out of its line.
        let named = DesktopLauncher(appId: "x", name: "Evil\nExec=rm -rf ~", command: ["true"], grove: "/g")
        #expect(!named.text.split(separator: "\n").contains { $0.hasPrefix("Exec=rm") })
    }

    @Test func shellWordsSplitLikeAShellWithoutRunningOne() throws {
        #expect(try ShellWords.split("firefox https://x.org/") == ["firefox", "https://x.org/"])
        #expect(try ShellWords.split(#"  a "b c" 'd "e"' f\ g "h\"i" "\q" ''  "#) == ["a", "b c", #"d "e""#, "f g", #"h"i"#, #"\q"#, ""])
        #expect(throws: ShellWords.Failure.unterminatedQuote) { try ShellWords.split("echo 'open") }
        #expect(throws: ShellWords.Failure.unterminatedQuote) { try ShellWords.split(#"echo "open"#) }
        #expect(throws: ShellWords.Failure.empty) { try ShellWords.split("   ") }
    }

    @Test func theLauncherDirectoryFollowsXDG() {
        #expect(DesktopLauncher.directory(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/a"]).path == "/data/applications")
        #expect(
            DesktopLauncher.directory(environment: ["XDG_DATA_HOME": "relative", "HOME": "/home/a"]).path
                == "/home/a/.local/share/applications")
        #expect(DesktopLauncher.directory(environment: ["HOME": "/home/a"]).path == "/home/a/.local/share/applications")
    }
}
