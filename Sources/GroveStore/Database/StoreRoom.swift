import GRDB
import GroveCore

/// One room's operations over the store (`db.focus.start()`, `db.timers.create(…)`): each a
/// transaction, grouped the way the CLI and the web are.
///
/// A room is a view of `AppDatabase` and nothing more: the writer, the environment and the
/// shared helpers stay there, so two rooms' operations can still meet in one transaction.
protocol StoreRoom: Sendable {
    /// The store the room works on.
    var database: AppDatabase { get }
}

extension StoreRoom {
    /// The store's writer, for reads (`snapshotRead`).
    var writer: any DatabaseWriter { database.writer }
    /// Time, ids and zone.
    var environment: GroveEnvironment { database.environment }
    /// A write through the store's checks (see `AppDatabase.write`).
    func write<T>(_ updates: (Database) throws -> T) throws -> T { try database.write(updates) }
    /// The calendar of "today" inside a transaction.
    func calendar(_ db: Database) throws -> ZonedCalendar { try database.calendar(db) }
}
