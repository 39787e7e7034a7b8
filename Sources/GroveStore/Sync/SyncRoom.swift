/// The device side of sync: the outbox, the inbox, the cursor and the clocks (see SYNC.md).
///
/// Every operation is one transaction: faces call these and parse and render only.
public struct SyncRoom: StoreRoom {
    let database: AppDatabase
}

extension AppDatabase {
    /// The device side of sync's operations.
    public var sync: SyncRoom { SyncRoom(database: self) }
}
