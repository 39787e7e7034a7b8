/// First run and settings that belong to no room: the setup, the assistant.
///
/// Every operation is one transaction: faces call these and parse and render only.
public struct SetupRoom: StoreRoom {
    let database: AppDatabase
}

extension AppDatabase {
    /// First run and settings that belong to no room's operations.
    public var setup: SetupRoom { SetupRoom(database: self) }
}
