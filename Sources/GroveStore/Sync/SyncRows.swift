import Foundation
import GRDB
import GroveCore

/// Reading and writing a synced row generically, from its `SyncEntity` description.
enum SyncRows {
    /// The row's fields by wire name, or nil when it does not exist (or is local-only).
    static func fields(_ db: Database, _ entity: SyncEntity, id: String) throws -> SyncFields? {
        let columns = entity.fields.map(\.column).joined(separator: ", ")
        var sql = "SELECT \(columns) FROM \(entity.table)"
        var arguments: StatementArguments = []
        var conditions: [String] = []
        if entity.singleton == nil {
            conditions.append("\(entity.keyColumn) = ?")
            arguments = [id]
        }
        if let localOnly = entity.localOnly { conditions.append("NOT (\(localOnly))") }
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        sql += " LIMIT 1"
        guard let row = try db.cachedRow(sql, arguments) else { return nil }
        return fields(row, entity)
    }

    static func fields(_ row: Row, _ entity: SyncEntity) -> SyncFields {
        var fields = SyncFields()
        for field in entity.fields {
            let value: DatabaseValue = row[field.column]
            switch value.storage {
            case .null: fields[field.wire] = .null
            case .int64(let number): fields[field.wire] = field.kind == .bool ? .bool(number != 0) : .int(number)
            case .double(let number): fields[field.wire] = .double(number)
            case .string(let text): fields[field.wire] = .text(text)
            case .blob(let data): fields[field.wire] = .text(String(decoding: data, as: UTF8.self))
            }
        }
        return fields
    }

    static func databaseValue(_ value: SyncValue?) -> DatabaseValue {
        switch value ?? .null {
        case .null: .null
        case .bool(let flag): (flag ? 1 : 0).databaseValue
        case .int(let number): number.databaseValue
        case .double(let number): number.databaseValue
        case .text(let text): text.databaseValue
        }
    }

    /// The clocks this device holds for a row.
    static func state(_ db: Database, _ entity: SyncEntity, id: String, fields: SyncFields?) throws -> SyncState {
        var state = SyncState(fields: fields ?? [:])
        let rows = try db.cachedRows("SELECT grp, hlc FROM sync_clock WHERE entity = ? AND entity_id = ?", [entity.name, id])
        for row in rows {
            let bit: Int = row["grp"]
            guard let clock = HLC(row["hlc"] as String) else { continue }
            if bit == SyncEntity.aliveBit {
                state.alive = clock
            } else if bit == SyncEntity.tombBit {
                state.tomb = clock
            } else if bit < entity.groups.count, fields != nil {
                state.clocks[entity.groups[bit].name] = clock
            }
        }
        return state
    }

    /// Stores the clocks of `state`; those equal in `stored` (read from this table) are there already.
    static func saveClocks(_ db: Database, _ entity: SyncEntity, id: String, _ state: SyncState, over stored: SyncState = SyncState())
        throws
    {
        var pairs: [(Int, HLC)] = []
        for (index, group) in entity.groups.enumerated() {
            if let clock = state.clocks[group.name], clock != stored.clocks[group.name] { pairs.append((index, clock)) }
        }
        if let alive = state.alive, alive != stored.alive { pairs.append((SyncEntity.aliveBit, alive)) }
        if let tomb = state.tomb, tomb != stored.tomb { pairs.append((SyncEntity.tombBit, tomb)) }
        for (bit, clock) in pairs {
            try db.cachedExecute(
                """
                INSERT INTO sync_clock (entity, entity_id, grp, hlc) VALUES (?, ?, ?, ?)
                ON CONFLICT (entity, entity_id, grp) DO UPDATE SET hlc = excluded.hlc
                """, [entity.name, id, bit, clock.description])
        }
    }
}
