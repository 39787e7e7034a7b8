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
        try AppDatabase.open(
            path: database.map(environment.resolve) ?? AppDatabase.defaultPath(environment: environment.variables),
            environment: environment.grove, concurrentReads: concurrentReads, createDirectory: database == nil)
    }
}
