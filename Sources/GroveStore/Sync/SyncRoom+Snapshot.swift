import Foundation
import GRDB
import GroveCore

extension SyncRoom {
    /// Every synced row of this store as it travels (local-only rows and columns left out): what
    /// `SyncSnapshot.canonical` of the server's states must equal once sync is quiet.
    public func snapshot() throws -> [EntityKey: SyncFields] {
        try writer.snapshotRead { db in
            var result: [EntityKey: SyncFields] = [:]
            for entity in SyncEntity.all {
                let columns = ([entity.keyColumn] + entity.fields.map(\.column)).joined(separator: ", ")
                let filter = entity.localOnly.map { " WHERE NOT (\($0))" } ?? ""
                for row in try Row.fetchAll(db, sql: "SELECT \(columns) FROM \(entity.table)\(filter)") {
                    let id: String = entity.singleton ?? row[entity.keyColumn]
                    result[EntityKey(entity: entity.name, id: id)] = SyncRows.fields(row, entity)
                }
            }
            return result
        }
    }
}
