import Foundation

/// What a user's data reads as, from the server's entity states: deleted rows gone, rows whose
/// required parent is deleted hidden, optional references to deleted rows read as none, and the
/// ten-enabled-apps limit resolved (latest enables win). Every device's store, read the same way
/// (`AppDatabase.sync.snapshot()`), must equal this once sync is quiet.
public enum SyncSnapshot {
    public static func canonical(_ states: [EntityKey: SyncState]) -> [EntityKey: SyncFields] {
        var result: [EntityKey: SyncFields] = [:]
        func gone(_ entity: SyncEntity, _ id: String) -> Bool {
            guard let state = states[EntityKey(entity: entity.name, id: id)] else {
                // A parent this server never held: gone, unless such rows can be local-only (bundled).
                return entity.localOnly == nil
            }
            return state.isDeleted(entity) || !state.isComplete(entity)
        }
        for (key, state) in states {
            guard let entity = SyncEntity.named(key.entity), !state.isDeleted(entity), state.isComplete(entity) else { continue }
            var fields = state.fields
            var hidden = false
            for reference in entity.references {
                guard let parentID = fields[reference.field]?.text, let parent = SyncEntity.named(reference.entity) else { continue }
                if gone(parent, parentID) {
                    if reference.optional { fields[reference.field] = .null } else { hidden = true }
                }
            }
            if !hidden { result[key] = fields }
        }
        // At most ten apps enabled: the latest enables win.
        let enabled = result.filter { $0.key.entity == SyncEntity.app.name && $0.value["isEnabled"] == .bool(true) }
            .map { (key: $0.key, clock: states[$0.key]?.clocks["isEnabled"]?.description ?? "") }
            .sorted { ($0.clock, $1.key.id) > ($1.clock, $0.key.id) }
        for held in enabled.dropFirst(10) { result[held.key]?["isEnabled"] = .bool(false) }
        return result
    }
}
