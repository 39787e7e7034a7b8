import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// Options every command takes.
public struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Path of the SQLite database.", valueName: "path"))
    public var database: String?

    @Flag(name: .long, help: "Print JSON (fields named as in the seeds) instead of text.")
    public var json = false

    public init() {}

    /// The store at `--database`, else Grove's default location.
    public func open(environment: GroveEnvironment = CLIEnvironment.current) throws -> AppDatabase {
        try AppDatabase.open(path: database ?? AppDatabase.defaultPath(), environment: environment)
    }
}
