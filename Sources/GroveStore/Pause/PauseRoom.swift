/// Pause: the gated apps, the mindful pause in front of them, its preferences and usage statistics.
///
/// Every operation is one transaction: faces call these and parse and render only.
public struct PauseRoom: StoreRoom {
    let database: AppDatabase
}

extension AppDatabase {
    /// Pause's operations.
    public var pause: PauseRoom { PauseRoom(database: self) }
}
