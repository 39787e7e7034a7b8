import GroveStore
import GroveSystem

extension NotificationHold {
    /// The hold for `db`'s file, under this process's environment; nil for a store without a file.
    static func of(_ db: AppDatabase) -> NotificationHold? {
        db.path.map { NotificationHold(storePath: $0, environment: CLIEnvironment.current.variables) }
    }

    /// Ends a hold whose session is no longer growing (its waiter was killed, the machine rebooted):
    /// `grove now` on every prompt and every focus command look. One `access(2)` when nothing is held.
    static func endIfDead(_ db: AppDatabase) throws {
        guard let hold = of(db), hold.isHeld, try db.focus.current()?.state != .active else { return }
        hold.release()
    }
}

extension GlobalOptions {
    /// The store, for a focus command: a hold left by a session that is over ends first.
    func openForFocus() throws -> AppDatabase { try plain.openForFocus() }
}

extension PlainOptions {
    /// The store, for a focus command: a hold left by a session that is over ends first.
    func openForFocus() throws -> AppDatabase {
        let db = try open()
        try NotificationHold.endIfDead(db)
        return db
    }
}
