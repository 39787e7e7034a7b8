import GroveCore

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

extension PauseRoom {
    /// What the gate reminds the person of before a pause (`GateIntent`): today's intention and the
    /// growing session's tags, read together.
    public func intent() throws -> GateIntent {
        let intention = try database.intentions.current()
        let session = try database.focus.current()
        return GateIntent(intention: intention?.text, tags: session?.state == .active ? session?.tags ?? [] : [])
    }
}
