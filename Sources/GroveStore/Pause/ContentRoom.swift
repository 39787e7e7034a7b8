/// The pause's library: the mindfulness content it shows and the packs it is refreshed from.
///
/// Every operation is one transaction: faces call these and parse and render only.
public struct ContentRoom: StoreRoom {
    let database: AppDatabase
}

extension AppDatabase {
    /// The pause's library's operations.
    public var content: ContentRoom { ContentRoom(database: self) }
}
