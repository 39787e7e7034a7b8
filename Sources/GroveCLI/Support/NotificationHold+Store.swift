import GroveStore
import GroveSystem

extension NotificationHold {
    /// The hold for `db`'s file, under this process's environment; nil for a store without a file.
    static func of(_ db: AppDatabase) -> NotificationHold? {
        db.path.map { NotificationHold(storePath: $0, environment: CLIEnvironment.current.variables) }
    }
}
