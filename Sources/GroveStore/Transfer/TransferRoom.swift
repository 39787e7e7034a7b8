/// Export and import: Grove's own formats, CSV, iCalendar and timewarrior.
///
/// Every operation is one transaction: faces call these and parse and render only.
public struct TransferRoom: StoreRoom {
    let database: AppDatabase
}

extension AppDatabase {
    /// Export and import's operations.
    public var transfer: TransferRoom { TransferRoom(database: self) }
}
