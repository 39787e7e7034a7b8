/// The weekly review: one week of every room, read together.
///
/// Every operation is one transaction: faces call these and parse and render only.
public struct ReviewRoom: StoreRoom {
    let database: AppDatabase
}

extension AppDatabase {
    /// The weekly review's operations.
    public var review: ReviewRoom { ReviewRoom(database: self) }
}
