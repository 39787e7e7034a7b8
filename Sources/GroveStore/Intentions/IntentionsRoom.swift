/// Intentions: day, week and month intentions, their reminders and the preferences they are shown with.
///
/// Every operation is one transaction: faces call these and parse and render only.
public struct IntentionsRoom: StoreRoom {
    let database: AppDatabase
}

extension AppDatabase {
    /// Intentions's operations.
    public var intentions: IntentionsRoom { IntentionsRoom(database: self) }
}
