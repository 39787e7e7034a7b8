import ArgumentParser

/// The command lines people run every day, parsed by their own command alone: ArgumentParser then
/// reflects over one command instead of building the tree of all ~80 (most of a start-up's parse).
/// Anything a fast parse does not take — `--help`, a typo, another subcommand — goes to the full
/// parse, which answers it exactly as before.
enum EverydayParse {
    /// Leaf commands by the words that name them: whatever follows is theirs alone, as in the full parse.
    static let leaves: [(path: [String], type: any ParsableCommand.Type)] = [
        (["forest"], ForestCommand.self), (["stats"], StatsCommand.self), (["review"], ReviewCommand.self),
        (["export"], ExportCommand.self), (["timer", "list"], TimerList.self), (["intention", "list"], IntentionList.self),
        (["focus", "status"], FocusStatus.self), (["pause", "stats"], PauseStats.self), (["pause", "weeks"], PauseWeeks.self),
    ]

    /// Groups run bare (or with `--json`): their default subcommand. With anything else the words may
    /// name another subcommand, so the full parse decides.
    static let defaults: [(path: [String], type: any ParsableCommand.Type)] = [
        (["timer"], TimerList.self), (["intention"], IntentionNow.self),
    ]

    /// The everyday command lines in their usual forms — a command's words, then only the global
    /// options — run with no parse by ArgumentParser at all: its first parse in a process costs ~20 M
    /// instructions (its reflection pays the runtime's first conformance lookups), as much as all the
    /// rest of `grove timer list`. The command's own options (`--days`, `--week`…) go to the parses above;
    /// only `export --format` is taken here, in its three lower-case words (any other spelling is parsed).
    static let immediate: [(path: [String], run: @Sendable (PlainOptions) throws -> Void)] = [
        ([], { try GroveCommand.run($0) }), (["forest"], { try ForestCommand.run($0) }), (["stats"], { try StatsCommand.run($0) }),
        (["review"], { try ReviewCommand.run($0) }), (["timer"], { try TimerList.run($0) }),
        (["timer", "list"], { try TimerList.run($0) }),
        (["intention"], { try IntentionNow.run($0) }), (["intention", "list"], { try IntentionList.run($0) }),
        (["focus", "status"], { try FocusStatus.run($0) }), (["pause", "stats"], { try PauseStats.run($0) }),
        (["pause", "weeks"], { try PauseWeeks.run($0) }), (["export"], { try ExportCommand.run($0, format: .json) }),
        (["export", "--format", "csv"], { try ExportCommand.run($0, format: .csv) }),
        (["export", "--format", "ics"], { try ExportCommand.run($0, format: .ics) }),
        (["export", "--format", "json"], { try ExportCommand.run($0, format: .json) }),
    ]

    /// The work and options for `arguments` when they are one of the `immediate` forms, else nil.
    static func immediate(_ arguments: [String]) -> (run: @Sendable (PlainOptions) throws -> Void, options: PlainOptions)? {
        for (path, run) in immediate where arguments.starts(with: path) {
            if let options = PlainOptions.parse(arguments.dropFirst(path.count)) { return (run, options) }
        }
        return nil
    }

    /// The command a fast parse makes of `arguments`, or nil for the full parse.
    static func command(_ arguments: [String]) -> (any ParsableCommand)? {
        if arguments.isEmpty || arguments.allSatisfy({ $0.hasPrefix("-") }) || arguments.first == "--database" {
            // `grove` itself (the dashboard) with only its global options.
            guard let options = try? GlobalOptions.parse(arguments) else { return nil }
            var root = GroveCommand()
            root.options = options
            return root
        }
        for (path, type) in leaves where arguments.starts(with: path) {
            return parse(type, Array(arguments.dropFirst(path.count)))
        }
        for (path, type) in defaults where arguments == path || arguments == path + ["--json"] {
            return parse(type, Array(arguments.dropFirst(path.count)))
        }
        return nil
    }

    /// `arguments` parsed by `type` alone, when that makes a `type` (help asked of a command parsed
    /// as the root names it without `grove`: the full parse answers it).
    static func parse(_ type: any ParsableCommand.Type, _ arguments: [String]) -> (any ParsableCommand)? {
        guard let command = try? type.parseAsRoot(arguments), Swift.type(of: command) == type else { return nil }
        return command
    }
}
