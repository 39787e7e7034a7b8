import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// What the shell offers on TAB (`grove --generate-completion-script bash|zsh|fish`): the names a
/// person types — timers, apps, themes, tags — read from the store the command line names (or the
/// default one), and the words an option takes. Completion never creates a store: where there is
/// none, it offers nothing.
enum Completions {
    /// Timer names (`grove timer start <TAB>`).
    static let timers = fromStore { try $0.timers.all().map(\.name) }
    /// App ids (`grove pause <TAB>`, `grove apps disable <TAB>`).
    static let apps = fromStore { try $0.pause.apps().map(\.id) }
    /// Theme names (`grove theme default <TAB>`, `--theme <TAB>`).
    static let themes = fromStore { try $0.themes.all().map(\.name) }
    /// Focus tags, most recently used first (`--tag <TAB>`).
    static let tags = fromStore { try $0.focus.tags(limit: 200).map(\.tag) }

    /// day, week, month.
    static let scopes = CompletionKind.list(IntentionScope.allCases.map(\.rawValue))
    /// preset, custom, generated.
    static let themeKinds = CompletionKind.list(AppDatabase.ThemeKind.allCases.map(\.rawValue))
    /// json, csv, ics.
    static let exportFormats = CompletionKind.list(ExportFormat.allCases.map(\.rawValue))
    /// The words for Grove's timer icons (`--icon book`).
    static let icons = CompletionKind.list(TimerIcon.words)

    /// Names read from the store, those that start with what is typed, in the store's order.
    static func fromStore(_ read: @escaping @Sendable (AppDatabase) throws -> [String]) -> CompletionKind {
        .custom { words, _, prefix in
            let variables = ProcessInfo.processInfo.environment
            let path = database(in: words).map(CLIEnvironment.current.resolve) ?? AppDatabase.defaultPath(environment: variables)
            guard FileManager.default.fileExists(atPath: path),
                let db = try? AppDatabase.open(path: path, concurrentReads: false, createDirectory: false),
                let names = try? read(db)
            else { return [] }
            var seen = Set<String>()
            return names.filter { $0.hasPrefix(prefix) && seen.insert($0).inserted }
        }
    }

    /// The `--database` value on the command line being completed (`--database PATH` or `--database=PATH`).
    static func database(in words: [String]) -> String? {
        for (index, word) in words.enumerated() {
            if word == "--database", index + 1 < words.count { return unquoted(words[index + 1]) }
            if word.hasPrefix("--database=") { return unquoted(String(word.dropFirst("--database=".count))) }
        }
        return nil
    }

    /// A shell word as typed, without its surrounding quotes (the shells pass words verbatim).
    static func unquoted(_ word: String) -> String {
        guard word.count >= 2, let first = word.first, first == "'" || first == "\"", word.last == first else { return word }
        return String(word.dropFirst().dropLast())
    }
}
