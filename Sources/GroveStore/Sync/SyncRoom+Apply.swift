import Foundation
import GRDB
import GroveCore

/// What one pull did to the store.
public struct PullApplied: Sendable, Equatable {
    /// Changes received from the server.
    public var received: Int
    /// Rows created, changed or deleted here.
    public var applied: Int
    /// Changes waiting for a parent row.
    public var parked: Int
    /// Changes this store cannot hold, set aside (`sync_refusal`) with the rule each broke.
    public var refused: [SyncRefusal] = []
    /// Changes made here and not sent yet when another device made a restore point current: stamped
    /// again, they went on top of it (`restampAfterRestore`).
    public var reapplied = 0
}

extension AppDatabase {

    /// Applies `changes`, parents first (then by sequence), with capture off. A change whose parent
    /// is missing, or that breaks a rule here, goes back to the inbox (counted) rather than failing
    /// the whole pull forever.
    static func apply(_ db: Database, _ changes: [SyncChange], pullComplete: Bool, now: Date) throws -> PullApplied {
        try db.cachedExecute("INSERT INTO sync_applying (id) VALUES (1)")
        let order = Dictionary(uniqueKeysWithValues: SyncEntity.all.enumerated().map { ($0.element.name, $0.offset) })
        let sorted = changes.sorted { (order[$0.entity] ?? 99, $0.seq) < (order[$1.entity] ?? 99, $1.seq) }
        var applied = 0
        var waiting: [SyncChange] = []
        var refused: [SyncRefusal] = []
        var reordered = Set<String>()
        for change in sorted {
            guard let entity = SyncEntity.named(change.entity) else { continue }
            var outcome = ApplyOutcome.parked
            do {
                try db.cachedExecute("SAVEPOINT sync_change")
                do {
                    outcome = try Self.apply(db, entity, id: change.entityId, remote: change.state, now: now)
                    try db.cachedExecute("RELEASE SAVEPOINT sync_change")
                } catch {
                    try db.cachedExecute("ROLLBACK TO SAVEPOINT sync_change")
                    try db.cachedExecute("RELEASE SAVEPOINT sync_change")
                    throw error
                }
            } catch {
                // A value this store cannot hold is set aside for good, in words; anything else waits.
                if let refusal = try refusePulled(db, change, error: error, now: now) {
                    refused.append(refusal)
                    continue
                }
                logger.warning(
                    "A pulled change could not be applied",
                    metadata: ["entity": "\(entity.name)", "id": "\(change.entityId)", "error": "\(error)"])
            }
            switch outcome {
            case .parked: waiting.append(change)
            case .applied:
                applied += 1
                if entity == .todo, let timer = change.fields["timerId"]?.text { reordered.insert(timer) }
            case .unchanged: break
            }
        }
        // The seed's sortOrder is the rank of the fractional keys (ties by id).
        for timer in reordered { try rankTodos(db, timer: timer) }
        try park(db, waiting)
        if pullComplete { applied += try removeUnseen(db) }
        try resolveEnabledApps(db)
        try db.cachedExecute("DELETE FROM sync_applying")
        return PullApplied(received: 0, applied: applied, parked: waiting.count, refused: refused)
    }

    enum ApplyOutcome { case applied, unchanged, parked }

    /// Sets each to-do's `sort_order` of a timer to its rank by (order key, id).
    static func rankTodos(_ db: Database, timer: String) throws {
        try db.cachedExecute(
            """
            UPDATE todo_item SET sort_order = (
                SELECT count(*) FROM todo_item t WHERE t.timer_id = todo_item.timer_id
                    AND (t.order_key < todo_item.order_key OR (t.order_key = todo_item.order_key AND t.id < todo_item.id)))
            WHERE timer_id = ?
            """, [timer])
    }

    /// After a complete pull from 0: synced rows the server no longer has were deleted elsewhere
    /// while this device was away (their deletions are past the server's horizon). Rows made here
    /// and not yet sent whole (a whole insert waits in the outbox) stay and go out as new; an edit of
    /// a row deleted meanwhile goes with the row, as it would have against the tombstone.
    static func removeUnseen(_ db: Database) throws -> Int {
        let rows = try db.cachedRows(
            """
            SELECT u.entity, u.entity_id FROM sync_unseen u
            WHERE NOT EXISTS (SELECT 1 FROM sync_outbox o WHERE o.entity = u.entity AND o.entity_id = u.entity_id
                                  AND o.dirty & \(1 << SyncEntity.aliveBit) <> 0)
            """)
        var removed = 0
        for row in rows {
            guard let entity = SyncEntity.named(row["entity"]), entity.singleton == nil else { continue }
            let id: String = row["entity_id"]
            try db.cachedExecute("DELETE FROM sync_clock WHERE entity = ? AND entity_id = ?", [entity.name, id])
            try db.cachedExecute("DELETE FROM sync_outbox WHERE entity = ? AND entity_id = ? AND mutation_id IS NULL", [entity.name, id])
            // Deleted, or retired (and sent again) when pauses here name it.
            let retired = try removeSynced(db, entity, id: id)
            removed += retired ? 1 : db.changesCount
        }
        try db.cachedExecute("DELETE FROM sync_unseen")
        return removed
    }

    /// Merges `remote` into the local row of `entity` by `SyncState.join`.
    static func apply(_ db: Database, _ entity: SyncEntity, id: String, remote: SyncState, now: Date) throws -> ApplyOutcome {
        let localFields = try SyncRows.fields(db, entity, id: id)
        let local = try SyncRows.state(db, entity, id: id, fields: localFields)
        var merged = SyncState.join(local, remote, entity: entity)
        try queueRuleWins(db, entity, id: id, local: local, remote: remote, merged: merged)
        if merged == local { return .unchanged }
        if merged.isDeleted(entity) {
            // Pending edits of the row are moot; a deletion made here that the server has not seen yet
            // (a later tombstone than the pulled one) still goes out.
            let ownDeletionPending = local.tomb.map { $0 > (remote.tomb ?? HLC.unchosen) } ?? false
            try db.cachedExecute(
                """
                DELETE FROM sync_outbox WHERE entity = ? AND entity_id = ? AND mutation_id IS NULL AND NOT (? AND dirty & \(1 << SyncEntity.tombBit) <> 0)
                """, [entity.name, id, ownDeletionPending])
            try SyncRows.saveClocks(db, entity, id: id, merged, over: local)
            // Deleted, or retired when pauses here name it (then queued again, after the lines above).
            if localFields != nil { try removeSynced(db, entity, id: id) }
            return .applied
        }
        guard merged.isComplete(entity) || localFields != nil else { return .parked }
        // References: a required parent must be here; an optional one reads as none when it is gone.
        for reference in entity.references {
            guard let parentID = merged.fields[reference.field]?.text, let parent = SyncEntity.named(reference.entity) else { continue }
            let exists = try db.cachedExists("SELECT 1 FROM \(parent.table) WHERE \(parent.keyColumn) = ?", [parentID])
            if !exists {
                let deleted = try db.cachedExists(
                    "SELECT 1 FROM sync_clock WHERE entity = ? AND entity_id = ? AND grp = ?",
                    [parent.name, parentID, SyncEntity.tombBit])
                // A parent not here yet (it comes later in this pull, or in the next): wait for it.
                // So does a pause whose app or quote was deleted: history is never hidden with its
                // parent, and the device that holds it brings the parent back, retired.
                guard deleted, entity != .gatewaySession else { return .parked }
                if reference.optional {
                    // A deleted parent reads as none, as the local ON DELETE SET NULL would make it.
                    merged.fields[reference.field] = .null
                } else {
                    // The row is hidden with its parent (its clocks are kept, should the parent come back).
                    try SyncRows.saveClocks(db, entity, id: id, merged, over: local)
                    return .unchanged
                }
            }
        }
        if entity == .focusSession { try settleOpenSessions(db, incoming: id, fields: &merged.fields, now: now) }
        // The rules every side of sync shares: a value an older server let through is refused here in
        // words, before the store's CHECKs would refuse it in SQL.
        try SyncValueRules.checkFields(entity, merged.fields)
        try SyncValueRules.checkRow(entity, merged)
        let changed = merged.fields != (localFields ?? [:])
        if changed { try write(db, entity, id: id, fields: merged.fields, exists: localFields != nil) }
        try SyncRows.saveClocks(db, entity, id: id, merged, over: local)
        return changed ? .applied : .unchanged
    }

    static func write(_ db: Database, _ entity: SyncEntity, id: String, fields: SyncFields, exists: Bool) throws {
        let columns = entity.fields
        if exists {
            let assignments = columns.map { "\($0.column) = ?" }.joined(separator: ", ")
            let condition = entity.singleton == nil ? " WHERE \(entity.keyColumn) = ?" : ""
            var values = columns.map { SyncRows.databaseValue(fields[$0.wire]) }
            if entity.singleton == nil { values.append(id.databaseValue) }
            try db.cachedExecute("UPDATE \(entity.table) SET \(assignments)\(condition)", StatementArguments(values))
        } else {
            var names = columns.map(\.column)
            var values = columns.map { SyncRows.databaseValue(fields[$0.wire]) }
            // Columns that only local-only rows use take their synced-row value.
            switch entity.name {
            case "theme": names.append("is_preset"); values.append(0.databaseValue)
            case "content": names += ["is_bundled", "times_shown"]; values += [0.databaseValue, 0.databaseValue]
            case "todo": names.append("sort_order"); values.append(0.databaseValue)  // the rank, recomputed after the batch
            default: break
            }
            names.append(entity.keyColumn)
            // One-row tables keep their local key (the wire's id is the same on every device).
            switch entity.name {
            case "focusPreferences": values.append(1.databaseValue)
            case "pausePreferences": values.append("user_preferences".databaseValue)
            case "userPreferences":
                values.append(IntentionID.uuid5(namespace: IntentionID.namespace, name: "user-preferences").uuidString.databaseValue)
            default: values.append(id.databaseValue)
            }
            try db.cachedExecute(
                "INSERT INTO \(entity.table) (\(names.joined(separator: ", "))) VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))",
                StatementArguments(values))
        }
    }

    /// At most ten apps are enabled: when merged choices enable more, the latest enables win and the
    /// others are held back (marked, so that they come back when a place frees up).
    static func resolveEnabledApps(_ db: Database) throws {
        let rows = try db.cachedRows(
            """
            SELECT a.id, a.is_enabled, coalesce(c.hlc, '') AS clock, h.hlc IS NOT NULL AS held
            FROM social_app a
            LEFT JOIN sync_clock c ON c.entity = 'app' AND c.entity_id = a.id AND c.grp = 3
            LEFT JOIN sync_clock h ON h.entity = 'app' AND h.entity_id = a.id AND h.grp = \(heldBackBit)
            WHERE a.is_enabled = 1 OR h.hlc IS NOT NULL
            ORDER BY clock DESC, a.id
            """)
        for (rank, row) in rows.enumerated() {
            let id: String = row["id"]
            let enabled = rank < 10
            if enabled != (row["is_enabled"] as Bool) {
                try db.cachedExecute("UPDATE social_app SET is_enabled = ? WHERE id = ?", [enabled, id])
            }
            if enabled {
                try db.cachedExecute("DELETE FROM sync_clock WHERE entity = 'app' AND entity_id = ? AND grp = ?", [id, heldBackBit])
            } else if !(row["held"] as Bool) {
                try db.cachedExecute("INSERT INTO sync_clock (entity, entity_id, grp, hlc) VALUES ('app', ?, ?, '')", [id, heldBackBit])
            }
        }
    }
}

extension SyncRoom {
    /// Takes one page of a pull, in one transaction with moving the cursor (so the cursor never
    /// passes a change that is not safely on disk): a page with more to come waits in the inbox; the
    /// last page is applied together with the inbox, parents first.
    @discardableResult
    ///
    /// `alsoSeen`: records the page held but that were set aside before it got here (sealed values that
    /// did not open): a pull from 0 must not take them for rows the server no longer has.
    public func receive(_ page: PullResponse, alsoSeen: [EntityKey] = []) throws -> PullApplied {
        let now = environment.now(), reading = environment.clockReading()
        return try write { db in
            guard let device = try AppDatabase.syncDevice(db) else { throw SyncStoreError.notLoggedIn }
            var clock =
                try String.fetchOne(db.cachedStatement(sql: "SELECT hlc FROM sync_state")).flatMap(HLC.init) ?? HLC.zero(node: device.node)
            let changes = page.changes.filter { SyncEntity.named($0.entity) != nil }
            for key in alsoSeen {
                try db.cachedExecute("DELETE FROM sync_unseen WHERE entity = ? AND entity_id = ?", [key.entity, key.id])
            }
            for change in changes {
                try db.cachedExecute("DELETE FROM sync_unseen WHERE entity = ? AND entity_id = ?", [change.entity, change.entityId])
                // The device's clock moves past every clock it has seen (never refused here: the server
                // already checked drift against its own time).
                if let seen = change.hlc, seen > clock { clock = HLC(millis: seen.millis, counter: seen.counter, node: device.node) }
            }
            try db.execute(
                sql: "UPDATE sync_state SET cursor = ?, cursor_checksum = ?, hlc = ?",
                arguments: [page.cursor, page.checksum, clock.description])
            try AppDatabase.observeServerTime(db, page.serverTime, reading: reading)
            if page.hasMore {
                try AppDatabase.park(db, changes)
                return PullApplied(received: changes.count, applied: 0, parked: 0)
            }
            let incoming = try changes + AppDatabase.inbox(db)
            let reapplied = try SyncRoom.restampAfterRestore(db, incoming, reading: reading)
            var result = try AppDatabase.apply(db, incoming, pullComplete: true, now: now)
            result.received = changes.count
            result.reapplied = reapplied
            return result
        }
    }

    /// The checksum this device holds for its cursor (compared with the server's to detect a restore).
    public func cursorChecksum() throws -> String {
        try writer.snapshotRead { db in try String.fetchOne(db.cachedStatement(sql: "SELECT cursor_checksum FROM sync_state")) ?? "" }
    }

}
