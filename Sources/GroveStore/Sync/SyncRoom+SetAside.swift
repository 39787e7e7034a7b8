import Foundation
import GRDB
import GroveCore

/// One change that a side of sync refused and that was set aside so that it blocks nothing after it.
public struct SyncRefusal: Sendable, Codable, Equatable {
    /// Which way it was going.
    public enum Direction: String, Sendable, Codable {
        /// A mutation of this device that the server refused: the value stays on this device only.
        case push
        /// A change from the server that this store cannot hold.
        case pull
    }
    public var direction: Direction
    public var entity: String
    public var entityId: String
    /// The field at fault, as the wire names it.
    public var field: String
    /// The rule it broke, in words.
    public var message: String
    public var refusedAt: Date

    /// One line for a person: what, which way, and why.
    public var sentence: String {
        switch direction {
        case .push: "The server refused a change of \(entity) \(entityId.prefix(8)) (\(message)): it stays on this device only"
        case .pull: "A change of \(entity) \(entityId.prefix(8)) from the server cannot be stored here (\(message)): set aside"
        }
    }
}

/// Changes not applied: pulled ones waiting for a parent (`sync_inbox`), and changes either side
/// refused (`sync_refusal`), each set aside once and told in words instead of blocking what follows.
extension AppDatabase {
    /// Keeps changes in the inbox (by sequence number: a later pull's copy replaces an earlier one).
    static func park(_ db: Database, _ changes: [SyncChange]) throws {
        let encoder = SyncWire.encoder()
        for change in changes {
            try db.cachedExecute(
                "INSERT OR REPLACE INTO sync_inbox (seq, entity, entity_id, change) VALUES (?, ?, ?, ?)",
                [change.seq, change.entity, change.entityId, String(decoding: try encoder.encode(change), as: UTF8.self)])
        }
    }

    /// Takes every change out of the inbox.
    static func inbox(_ db: Database) throws -> [SyncChange] {
        let decoder = JSONDecoder()
        let texts = try String.fetchAll(db.cachedStatement(sql: "SELECT change FROM sync_inbox ORDER BY seq"))
        try db.cachedExecute("DELETE FROM sync_inbox")
        return texts.compactMap { try? decoder.decode(SyncChange.self, from: Data($0.utf8)) }
    }

    /// Sets a pulled change aside when `error` says this store cannot hold it (a rule of the core or a
    /// CHECK of the schema), and returns the refusal; nil for anything else (it waits in the inbox).
    static func refusePulled(_ db: Database, _ change: SyncChange, error: any Error, now: Date) throws -> SyncRefusal? {
        let field: String, message: String
        switch error {
        case let invalid as InvalidField: (field, message) = (invalid.field, invalid.message)
        case let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT && !"\(error)".contains("FOREIGN KEY"):
            guard let violation = ConstraintViolation(error) else { return nil }
            (field, message) = (violation.field, violation.message)
        default: return nil
        }
        let refusal = SyncRefusal(
            direction: .pull, entity: change.entity, entityId: change.entityId, field: field, message: message, refusedAt: now)
        try record(db, refusal, change: String(decoding: try SyncWire.encoder().encode(change), as: UTF8.self))
        logger.warning("A pulled change was set aside", metadata: ["refusal": "\(refusal.sentence)"])
        return refusal
    }

    static func record(_ db: Database, _ refusal: SyncRefusal, change: String) throws {
        try db.cachedExecute(
            """
            INSERT INTO sync_refusal (direction, entity, entity_id, field, message, change, refused_at) VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            [
                refusal.direction.rawValue, refusal.entity, refusal.entityId, refusal.field, String(refusal.message.prefix(500)), change,
                refusal.refusedAt.groveMillis,
            ])
    }
}

extension SyncRoom {
    /// Sets aside mutation `mutationId`, which the server refused for `field` (`message`): it is kept
    /// with its reason, and a `skip` under the same id takes its place, so that the next push goes on
    /// with every change after it. Nil when no sealed mutation has that id.
    @discardableResult
    public func setAside(mutationId: Int64, field: String, message: String) throws -> SyncRefusal? {
        let now = environment.now()
        return try write { db in
            guard
                let payload = try String.fetchOne(
                    db.cachedStatement(sql: "SELECT payload FROM sync_outbox WHERE mutation_id = ?"), arguments: [mutationId]),
                let mutation = try? JSONDecoder().decode(SyncMutation.self, from: Data(payload.utf8)),
                // Set aside already, and refused again as a skip (a server that cannot take even that):
                // nothing more to set aside — the refusal stands, and the sync stops on it.
                mutation.op != .skip
            else { return nil }
            let refusal = SyncRefusal(
                direction: .push, entity: mutation.entity, entityId: mutation.entityId, field: field, message: message, refusedAt: now)
            try AppDatabase.record(db, refusal, change: payload)
            let skip = SyncMutation(id: mutation.id, hlc: mutation.hlc, entity: mutation.entity, entityId: mutation.entityId, op: .skip)
            // No dirty bits: should the batch be sealed again (`unseal`), nothing of it is sent again.
            try db.cachedExecute(
                "UPDATE sync_outbox SET payload = ?, dirty = 0 WHERE mutation_id = ?",
                [String(decoding: try SyncWire.encoder().encode(skip), as: UTF8.self), mutationId])
            return refusal
        }
    }

    /// The changes set aside, newest first.
    public func refusals(limit: Int = 20) throws -> [SyncRefusal] {
        try writer.snapshotRead { db in try AppDatabase.refusals(db, limit: limit) }
    }
}

extension AppDatabase {
    static func refusals(_ db: Database, limit: Int) throws -> [SyncRefusal] {
        try db.cachedRows(
            "SELECT direction, entity, entity_id, field, message, refused_at FROM sync_refusal ORDER BY id DESC LIMIT ?", [limit]
        ).map { row in
            SyncRefusal(
                direction: SyncRefusal.Direction(rawValue: row["direction"]) ?? .pull, entity: row["entity"], entityId: row["entity_id"],
                field: row["field"], message: row["message"], refusedAt: Date(groveMillis: row["refused_at"]))
        }
    }
}
