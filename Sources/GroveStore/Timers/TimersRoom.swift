/// Timers: named timers, their to-do checklists, their runs and their notices.
///
/// Every operation is one transaction: faces call these and parse and render only.
public struct TimersRoom: StoreRoom {
    let database: AppDatabase
}

extension AppDatabase {
    /// Timers's operations.
    public var timers: TimersRoom { TimersRoom(database: self) }
}
