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

/// The environment commands run in.
///
/// `GROVE_NOW=2025-03-12T04:00:00Z` makes the process start at that instant; time then advances
/// with the monotonic clock. End-to-end tests use it to live on a chosen day (a DST change, say).
public enum CLIEnvironment {
    public static let current: GroveEnvironment = make(ProcessInfo.processInfo.environment)

    static func make(_ variables: [String: String]) -> GroveEnvironment {
        guard let text = variables["GROVE_NOW"], let start = GroveExport.parseInstant(text) else { return .live }
        let clock = ContinuousClock()
        let origin = clock.now
        let now: @Sendable () -> Date = {
            let d = origin.duration(to: clock.now)
            return start.addingTimeInterval(Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18).groveRoundedToMillis
        }
        return GroveEnvironment(now: now, uuid: { UUID() }, systemTimeZone: { TimeZone.current },
                                clockReading: { ClockReading(wall: now()) })
    }
}
