import Crypto
import Foundation
import GroveCore

/// Seals a device's mutations and opens the server's changes with the account's data key: each field
/// group becomes one box (`SealedValue`) whose additional data binds the entity, the id, the group,
/// the group's clock and the key id. Pure: the same key and input give boxes that open the same way
/// on every device (each box has its own random nonce).
public struct Sealer: Sendable {
    public let key: DataKey

    public init(key: DataKey) { self.key = key }

    /// The size bucket of a sealed group's plaintext.
    static let padding = 32

    /// `mutation` with every group of a put sealed, and a deletion's sealed mark (a box of nothing
    /// bound to the record and the deletion's clock); skips carry nothing.
    public func seal(_ mutation: SyncMutation) throws -> SyncMutation {
        if mutation.op == .delete, let entity = SyncEntity.named(mutation.entity) {
            var marked = mutation
            marked.fields = [
                SealedValue.fieldName(group: SealedValue.tombGroup): .text(
                    try box([:], entity: entity.name, id: mutation.entityId, group: SealedValue.tombGroup, clock: mutation.hlc))
            ]
            return marked
        }
        guard mutation.op == .put, let entity = SyncEntity.named(mutation.entity) else { return mutation }
        var sealed = mutation
        sealed.fields = [:]
        for group in entity.groups {
            let values = group.fields.compactMap { field in mutation.fields[field.wire].map { (field.wire, $0) } }
            guard !values.isEmpty else { continue }
            let clock = mutation.clocks?[group.name] ?? mutation.hlc
            sealed.fields[SealedValue.fieldName(group: group.name)] = .text(
                try box(
                    Dictionary(uniqueKeysWithValues: values), entity: entity.name, id: mutation.entityId, group: group.name, clock: clock))
        }
        return sealed
    }

    /// `change` with its boxes opened into fields. Throws `otherKey` for a box under a key this one
    /// neither is nor replaced (the device must unlock again), `tampered` for one that does not open or holds fields of another group.
    public func open(_ change: SyncChange) throws -> SyncChange {
        guard let entity = SyncEntity.named(change.entity) else { return change }
        var opened = change
        opened.fields = [:]
        if !change.fields.isEmpty, change.fields.keys.allSatisfy({ SealedValue.group(ofField: $0) == nil }) {
            throw AccountKeyError.unsealed(entity: change.entity, id: change.entityId)
        }
        // A tombstone counts only with its mark, sealed for that very record and clock: without one a
        // deletion is refused, and a tombstone under a newer insert is dropped (it can delete nothing).
        let markName = SealedValue.fieldName(group: SealedValue.tombGroup)
        if let tomb = change.tomb {
            let marked =
                if case .text(let mark) = change.fields[markName], change.clocks[SealedValue.tombGroup] == tomb {
                    (try? unbox(mark, entity: entity.name, id: change.entityId, group: SealedValue.tombGroup, clock: tomb))?.isEmpty == true
                } else { false }
            if !marked {
                if change.deleted { throw AccountKeyError.unsealedDeletion(entity: change.entity, id: change.entityId) }
                opened.tomb = nil
            }
        }
        opened.clocks[SealedValue.tombGroup] = nil
        for (name, value) in change.fields where name != markName {
            guard let groupName = SealedValue.group(ofField: name), let group = entity.group(named: groupName),
                case .text(let text) = value, let clock = change.clocks[groupName]
            else { throw AccountKeyError.tampered(entity: change.entity, id: change.entityId, group: name) }
            let fields = try unbox(text, entity: entity.name, id: change.entityId, group: groupName, clock: clock)
            let wires = Set(group.fields.map(\.wire))
            guard fields.keys.allSatisfy(wires.contains) else {
                throw AccountKeyError.tampered(entity: change.entity, id: change.entityId, group: groupName)
            }
            opened.fields.merge(fields) { first, _ in first }
        }
        return opened
    }

    func box(_ fields: SyncFields, entity: String, id: String, group: String, clock: HLC) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        var plaintext = try encoder.encode(fields)
        // Padded with spaces (JSON ignores them) to the next multiple of 32 bytes: a box's size tells
        // the server a value's length to within 32 bytes only.
        plaintext.append(contentsOf: repeatElement(UInt8(ascii: " "), count: Self.padding - plaintext.count % Self.padding))
        let aad = SealedValue.additionalData(entity: entity, entityId: id, group: group, clock: clock, keyId: key.keyId)
        let box = try ChaChaPoly.seal(plaintext, using: key.sealing, authenticating: aad)
        return SealedValue.prefix + key.keyId + ":" + box.combined.base64EncodedString()
    }

    func unbox(_ text: String, entity: String, id: String, group: String, clock: HLC) throws -> SyncFields {
        guard let named = SealedValue.keyId(of: text) else { throw AccountKeyError.tampered(entity: entity, id: id, group: group) }
        // The current key, or one it replaced (what was sealed before a replacement stays as it was).
        guard let opening = key.opening(named) else { throw AccountKeyError.otherKey(held: key.keyId, named: named) }
        let aad = SealedValue.additionalData(entity: entity, entityId: id, group: group, clock: clock, keyId: named)
        guard let data = Data(base64Encoded: String(text.dropFirst(SealedValue.prefix.count + SealedValue.keyIdLength + 1))),
            let box = try? ChaChaPoly.SealedBox(combined: data),
            let plaintext = try? ChaChaPoly.open(box, using: opening.sealing, authenticating: aad),
            let fields = try? JSONDecoder().decode(SyncFields.self, from: plaintext)
        else { throw AccountKeyError.tampered(entity: entity, id: id, group: group) }
        return fields
    }
}
