import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// Options every command takes.
public struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Path of the SQLite database.", valueName: "path"))
    public var database: String?

    @Flag(name: .long, help: "Print JSON (fields named as in the JSON API) instead of text.")
    public var json = false

    public init() {}

    /// The store at `--database`, else Grove's default location (from the current environment's
    /// variables). One connection for a command; `concurrentReads` for the server.
    public func open(environment: CLIEnvironment = CLIEnvironment.current, concurrentReads: Bool = false) throws -> AppDatabase {
        try Self.open(database: database, environment: environment, concurrentReads: concurrentReads)
    }

    /// The store at `database` (a `--database` value), else Grove's default location.
    static func open(database: String?, environment: CLIEnvironment = CLIEnvironment.current, concurrentReads: Bool = false) throws
        -> AppDatabase
    {
        let store = try AppDatabase.open(
            path: database.map(environment.resolve) ?? AppDatabase.defaultPath(environment: environment.variables),
            environment: environment.grove, concurrentReads: concurrentReads, createDirectory: database == nil)
        StoresAtExit.keep(store)
        return store
    }
}

extension GlobalOptions {
    /// The same options as plain values, for a command's work.
    var plain: PlainOptions { PlainOptions(database: database, json: json) }
}

/// The global options as plain values: what a command's work reads, whichever parse made them —
/// ArgumentParser's, or `EverydayParse.immediate`'s for the everyday command lines.
struct PlainOptions: Equatable, Sendable {
    var database: String?
    var json = false

    /// The store at `--database`, else Grove's default location.
    func open() throws -> AppDatabase { try GlobalOptions.open(database: database) }

    /// `arguments` when they are only the global options — `--json`, `--database PATH` or
    /// `--database=PATH`, each at most once — and those `other` takes (it is given each other
    /// argument and what follows it, and says whether it took it); nil for anything else (the full
    /// parse answers it, and explains a mistake).
    static func parse(
        _ arguments: some Collection<String>, other: (String, inout ArraySlice<String>) -> Bool = { _, _ in false }
    ) -> PlainOptions? {
        var options = PlainOptions()
        var rest = ArraySlice(arguments)
        while let argument = rest.popFirst() {
            switch argument {
            case "--json" where !options.json: options.json = true
            case "--database" where options.database == nil:
                guard let path = rest.popFirst(), !path.isEmpty, !path.hasPrefix("-") else { return nil }
                options.database = path
            case _ where argument.hasPrefix("--database=") && options.database == nil:
                let path = String(argument.dropFirst("--database=".count))
                guard !path.isEmpty else { return nil }
                options.database = path
            default: guard other(argument, &rest) else { return nil }
            }
        }
        return options
    }
}
