import Foundation
import GroveCore

/// Focus: sessions that grow trees, their forest, tags, streaks and statistics, and the Pomodoro preferences.
///
/// Every operation is one transaction: faces call these and parse and render only.
public struct FocusRoom: StoreRoom {
    let database: AppDatabase

    /// How long after its end a session still gets its notice (a server started later, a page opened
    /// later, do not announce old trees).
    public static let noticeWindow: TimeInterval = 600

    /// The largest page a list returns at once.
    public static let maxPageSize = 1000

    /// A logged pause inside a past session (see `FocusSession.logged`).
    public typealias LoggedPause = FocusSession.LoggedPause
}

extension AppDatabase {
    /// Focus's operations.
    public var focus: FocusRoom { FocusRoom(database: self) }
}
