import Foundation
import GRDB

/// Tells when any connection — in this process or another (the CLI, a script) — committed to the file.
///
/// `PRAGMA data_version` on a connection of its own changes whenever another connection commits. It
/// reads no table, so asking costs microseconds: cheap enough to ask before every cached answer.
public final class DataVersionWatcher: Sendable {
    private let connection: DatabaseQueue

    /// A read-only connection to the file at `path`.
    public init(path: String) throws {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(5)
        connection = try DatabaseQueue(path: path, configuration: configuration)
    }

    /// A number that changes whenever anyone else commits.
    public func version() throws -> Int {
        try connection.inDatabase { db in try Int.fetchOne(db.cachedStatement(sql: "PRAGMA data_version")) ?? 0 }
    }
}
