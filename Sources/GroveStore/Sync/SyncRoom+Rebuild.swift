import Foundation
import GRDB
import GroveCore

extension SyncRoom {
    /// Writes one page of a restore point (an account as it stood at an instant) into this store,
    /// which must be new and linked to no server: what a restore rebuilds is a copy to look at, export
    /// or start again from, never a second device. Rows come parents first within a page; a row whose
    /// parent comes on a later page waits in the inbox until the `last` page, which applies what waits.
    /// Every rule of the store holds as for a pull: a row it cannot hold is set aside and counted.
    @discardableResult
    public func rebuild(_ changes: [SyncChange], last: Bool) throws -> PullApplied {
        let now = environment.now()
        return try write { db in
            guard try AppDatabase.syncDevice(db) == nil else { throw SyncStoreError.restoreIntoLinkedStore }
            let known = changes.filter { SyncEntity.named($0.entity) != nil }
            var result = try AppDatabase.apply(db, known + (last ? AppDatabase.inbox(db) : []), pullComplete: false, now: now)
            result.received = known.count
            return result
        }
    }
}
