import Foundation
import GRDB
import GroveCore

/// The rules a pull applies that need values: the same on every device, so that an encrypted
/// account's devices — whose server orders by clock alone — end on the same rows as a plain one's.
extension AppDatabase {
    /// Two devices started sessions offline: the later start stays open and the other closes at that
    /// instant (completed if it had reached its length, else abandoned) — the same rule the server
    /// applies, so both reach the same rows.
    ///
    /// The close comes no later than the server's time as this device knows it (its wall clock and the
    /// offset learned from the server): a start stamped ahead by a fast clock is not credited to the
    /// other session as time it focused.
    static func settleOpenSessions(_ db: Database, incoming id: String, fields: inout SyncFields, now: Date) throws {
        guard let state = fields["state"]?.text, state == "active" || state == "paused" else { return }
        let columns = SyncEntity.focusSession.fields.map(\.column).joined(separator: ", ")
        guard let row = try db.cachedRow("SELECT id, \(columns) FROM focus_session WHERE state IN ('active', 'paused') AND id <> ?", [id])
        else { return }
        let otherID: String = row["id"]
        let other = SyncRows.fields(row, .focusSession)
        let offset = try Int64.fetchOne(db.cachedStatement(sql: "SELECT clock_offset_ms FROM sync_state")) ?? 0
        let serverNow = now.addingTimeInterval(Double(offset) / 1000)
        guard let (_, close) = FocusSupersession.resolve((id, fields), (otherID, other), notAfter: serverNow) else { return }
        if close.id == id {
            fields = close.fields
        } else {
            try write(db, .focusSession, id: close.id, fields: close.fields, exists: true)
        }
        // The close is this device's decision and goes out like any change: the server may never see
        // both sessions open at once (one may reach it already ended, later than this close).
        try db.cachedExecute(
            """
            INSERT INTO sync_outbox (entity, entity_id, dirty, fresh) VALUES ('focusSession', ?, 1, 1)
            ON CONFLICT (entity, entity_id) WHERE mutation_id IS NULL DO UPDATE SET dirty = dirty | 1, fresh = fresh | 1
            """, [close.id])
    }

    /// Groups this device's version kept by the entity's rule against a newer clock (a finished session
    /// against a later pause from a device that had not heard of the finish) go out again, stamped now.
    /// On an encrypted account the server orders by clock alone and would keep the newer, losing
    /// version for every device that had not seen both: this is how every device still ends on the
    /// rule's winner (SYNC.md "Private sync"). On a plain account the server applied the rule already
    /// and this finds nothing to do.
    static func queueRuleWins(_ db: Database, _ entity: SyncEntity, id: String, local: SyncState, remote: SyncState, merged: SyncState)
        throws
    {
        guard entity.rule != .lastWriterWins else { return }
        var bits = 0
        for (index, group) in entity.groups.enumerated() {
            guard let mine = local.clocks[group.name], let theirs = remote.clocks[group.name], theirs > mine,
                merged.clocks[group.name] == mine
            else { continue }
            bits |= 1 << index
        }
        guard bits != 0 else { return }
        try db.cachedExecute(
            """
            INSERT INTO sync_outbox (entity, entity_id, dirty, fresh) VALUES (?, ?, ?, ?)
            ON CONFLICT (entity, entity_id) WHERE mutation_id IS NULL DO UPDATE SET dirty = dirty | excluded.dirty, fresh = fresh | excluded.fresh
            """, [entity.name, id, bits, bits])
    }
}
