import Foundation

/// A freedesktop menu entry (Desktop Entry Specification) that runs a program through Grove's
/// pause: what a person starts from the desktop menu is gated like a site in the browser. (Version
/// 1.4 of the specification: what Debian's desktop-file-validate knows; nothing here needs 1.5.)
public struct DesktopLauncher: Equatable, Sendable {
    /// The app's id in Grove (`grove pause ID`).
    public var appId: String
    /// The app's name, shown in the menu.
    public var name: String
    /// The program and its arguments, run after the pause if the person proceeds.
    public var command: [String]
    /// The `grove` executable (an absolute path: menus do not search the shell's PATH reliably).
    public var grove: String
    /// The store the pause counts in (absolute), named in the entry: a desktop menu runs it without
    /// the shell's `GROVE_HOME` or `--database`, which would otherwise count in another store.
    public var database: String?

    public init(appId: String, name: String, command: [String], grove: String, database: String? = nil) {
        self.appId = appId
        self.name = name
        self.command = command
        self.grove = grove
        self.database = database
    }

    /// `$XDG_DATA_HOME/applications` (default `~/.local/share/applications`).
    public static func directory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        XDGDirectory.resolve("XDG_DATA_HOME", default: ".local/share", environment: environment).appendingPathComponent("applications")
    }

    /// The entry's file name: one per app, so writing it again replaces it.
    public static func fileName(appId: String) -> String { "grove-pause-\(appId).desktop" }

    /// The file's text. The pause counts down in a terminal, so the entry asks for one.
    public var text: String {
        let store = database.map { ["--database", $0] } ?? []
        let exec = ([grove, "pause", appId] + store + ["--"] + command).map(Self.quote).joined(separator: " ")
        return """
            [Desktop Entry]
            Type=Application
            Version=1.4
            Name=\(Self.escape(name))
            GenericName=\(Self.escape(name)) after a mindful pause
            Comment=A pause in Grove before \(Self.escape(name)) opens
            TryExec=\(Self.escape(grove))
            Exec=\(Self.escape(exec))
            Terminal=true
            Categories=Utility;
            X-Grove-App=\(Self.escape(appId))

            """
    }

    /// One argument of an `Exec` line: quoted when it holds anything the spec reserves, with `"`,
    /// `` ` ``, `$` and `\` escaped inside the quotes and `%` doubled (field codes are not meant).
    static func quote(_ argument: String) -> String {
        let percent = argument.replacingOccurrences(of: "%", with: "%%")
        let reserved = Set(" \t\n\"'\\><~|&;$*?#()`=")
        guard percent.isEmpty || percent.contains(where: { reserved.contains($0) }) else { return percent }
        var quoted = "\""
        for character in percent {
            if "\"`$\\".contains(character) { quoted.append("\\") }
            quoted.append(character)
        }
        return quoted + "\""
    }

    /// A value of type string: backslash, newline, tab and carriage return escaped.
    static func escape(_ value: String) -> String {
        var out = ""
        for character in value {
            switch character {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default: out.append(character)
            }
        }
        return out
    }
}

/// Splits a command line the way a POSIX shell splits words — spaces between words, single quotes
/// literal, double quotes with `\"` `\\` `\$` `` \` ``, a backslash outside quotes escaping the next
/// character — without running a shell: no variables, globs or substitutions.
public enum ShellWords {
    public enum Failure: Error, Equatable {
        /// A quote opened and never closed.
        case unterminatedQuote
        /// Nothing to run.
        case empty
    }

    public static func split(_ line: String) throws(Failure) -> [String] {
        var words: [String] = []
        var word = "", inWord = false
        var iterator = Array(line).makeIterator()
        while let character = iterator.next() {
            switch character {
            case " ", "\t", "\n":
                if inWord { words.append(word); word = ""; inWord = false }
            case "'":
                inWord = true
                while true {
                    guard let next = iterator.next() else { throw .unterminatedQuote }
                    if next == "'" { break }
                    word.append(next)
                }
            case "\"":
                inWord = true
                while true {
                    guard let next = iterator.next() else { throw .unterminatedQuote }
                    if next == "\"" { break }
                    if next == "\\" {
                        guard let escaped = iterator.next() else { throw .unterminatedQuote }
                        if !"\"\\$`".contains(escaped) { word.append("\\") }
                        word.append(escaped)
                    } else {
                        word.append(next)
                    }
                }
            case "\\":
                inWord = true
                if let escaped = iterator.next() { word.append(escaped) }
            default:
                inWord = true
                word.append(character)
            }
        }
        if inWord { words.append(word) }
        guard !words.isEmpty else { throw .empty }
        return words
    }
}
