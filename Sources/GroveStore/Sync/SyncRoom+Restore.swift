import Foundation
import GRDB
import GroveCore

/// What making a restore point current changed (or, not yet confirmed, would change).
public struct RestoreApplied: Sendable, Codable, Equatable {
    /// The instant the account was taken back to.
    public var asOf: Date
    /// Records that come back (deleted since).
    public var added = 0
    /// Records whose values go back to what they were.
    public var changed = 0
    /// Records made since, removed (history — sessions, pauses, gate changes — is never removed).
    public var removed = 0
    /// Whether it was written (false: what `--yes` would do).
    public var applied = false

    public init(asOf: Date) { self.asOf = asOf }

    /// Every record the restore writes.
    public var total: Int { added + changed + removed }
}

extension SyncRoom {
    /// Kinds of records that say what happened (a session, a pause, a gate loosened): a restore brings
    /// back those deleted since, and never removes one made since.
    static let historyKinds: Set<String> = [SyncEntity.focusSession.name, SyncEntity.gatewaySession.name, SyncEntity.gateChange.name]

    /// Makes the account as it stood at `asOf` (rebuilt by `rebuild` into the store at `restoredPath`)
    /// this store's current state, as local edits: captured and stamped now like any other, they go
    /// out at the next push, win over everything the server had, and leave its history whole (an
    /// earlier restore point still opens). An `accountRestore` record goes first, so that every other
    /// device sends what it had not sent yet on top of the restore rather than under it.
    /// With `apply` false nothing is written: the answer says what would be.
    public func makeCurrent(restoredFrom restoredPath: String, asOf: Date, deviceName: String, apply: Bool) throws -> RestoreApplied {
        var configuration = Configuration()
        configuration.readonly = true
        let restored = try DatabaseQueue(path: restoredPath, configuration: configuration)
        let now = environment.now()
        return try write { db in
            guard try AppDatabase.syncDevice(db) != nil else { throw SyncStoreError.notLoggedIn }
            var summary = RestoreApplied(asOf: asOf)
            summary.applied = apply
            let kinds = SyncEntity.all.filter { $0 != .accountRestore }
            let restoreID = environment.uuid().uuidString.lowercased()
            if apply {
                try db.cachedExecute(
                    "INSERT INTO account_restore (id, as_of, applied_at, device_name, rows_changed) VALUES (?, ?, ?, ?, 0)",
                    [restoreID, asOf.groveMillis, now.groveMillis, deviceName])
            }
            try restored.read { old in
                // Made since: removed, children first (history stays).
                for entity in kinds.reversed() where entity.singleton == nil && !Self.historyKinds.contains(entity.name) {
                    try Self.eachID(db, entity) { id in
                        guard try SyncRows.fields(old, entity, id: id) == nil else { return }
                        summary.removed += 1
                        if apply { _ = try AppDatabase.removeKeepingHistory(db, entity, id: id) }
                    }
                }
                // Back as they were, parents first. A timer or to-do deleted since comes back under a
                // new id — their deletes are final for sync, whatever comes after — and its children
                // follow it there.
                var timers = Set<String>()
                var renamed: [String: [String: String]] = [:]
                for entity in kinds {
                    try Self.eachID(old, entity) { id in
                        guard var then = try SyncRows.fields(old, entity, id: id) else { return }
                        for reference in entity.references {
                            if let parent = then[reference.field]?.text, let moved = renamed[reference.entity]?[parent] {
                                then[reference.field] = .text(moved)
                            }
                        }
                        let current = try SyncRows.fields(db, entity, id: id)
                        guard current != then else { return }
                        if current == nil { summary.added += 1 } else { summary.changed += 1 }
                        guard apply else { return }
                        var target = id
                        if current == nil, entity.stickyDelete {
                            target = environment.uuid().uuidString
                            renamed[entity.name, default: [:]][id] = target
                        }
                        try AppDatabase.write(db, entity, id: target, fields: then, exists: current != nil)
                        if entity == .todo, let timer = then["timerId"]?.text { timers.insert(timer) }
                    }
                }
                for timer in timers { try AppDatabase.rankTodos(db, timer: timer) }
            }
            if apply { try db.cachedExecute("UPDATE account_restore SET rows_changed = ? WHERE id = ?", [summary.total, restoreID]) }
            return summary
        }
    }

    /// Calls `body` with each synced id of `entity` in `db`, a page at a time (constant memory, and
    /// safe while `body` removes rows already listed).
    static func eachID(_ db: Database, _ entity: SyncEntity, _ body: (String) throws -> Void) throws {
        if entity.singleton != nil {
            if try SyncRows.fields(db, entity, id: entity.singleton ?? "") != nil { try body(entity.singleton ?? "") }
            return
        }
        let local = entity.localOnly.map { " AND NOT (\($0))" } ?? ""
        let page = try db.cachedStatement(
            sql:
                "SELECT \(entity.keyColumn) FROM \(entity.table) WHERE \(entity.keyColumn) > ?\(local) ORDER BY \(entity.keyColumn) LIMIT 500"
        )
        var after = ""
        while true {
            let ids = try String.fetchAll(page, arguments: [after])
            for id in ids { try body(id) }
            guard let last = ids.last, ids.count == 500 else { return }
            after = last
        }
    }

    /// Before a pull that brings a restore this device has not seen is applied: what it changed and had
    /// not sent yet is stamped again now — after every clock the pull carries — so it lands on top of
    /// the restore instead of under it. Returns how many records that was.
    static func restampAfterRestore(_ db: Database, _ changes: [SyncChange], reading: ClockReading) throws -> Int {
        let unseen = try changes.contains { change in
            guard change.entity == SyncEntity.accountRestore.name, !change.deleted else { return false }
            return try !db.cachedExists("SELECT 1 FROM account_restore WHERE id = ?", [change.entityId])
        }
        guard unseen else { return 0 }
        let pending =
            try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM sync_outbox WHERE mutation_id IS NULL AND dirty <> 0")) ?? 0
        guard pending > 0 else { return 0 }
        try db.cachedExecute("UPDATE sync_outbox SET fresh = dirty WHERE mutation_id IS NULL")
        try AppDatabase.stampCapturedChanges(db, reading: reading)
        return pending
    }
}
