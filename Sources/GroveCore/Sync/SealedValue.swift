import Foundation

/// A field group sealed end to end (SYNC.md "Private sync"): on an encrypted account each group of a
/// put travels as one text field, `@<group>`, whose value is `gs1:<key id>:<base64 box>`.
///
/// The server reads only the key id (to refuse boxes under a retired key); the box is an AEAD whose
/// additional data binds the entity, its id, the group, the group's clock and the key id
/// (`additionalData`), so a box moved to another record, group or clock does not open.
public enum SealedValue {
    /// The version prefix of every box.
    public static let prefix = "gs1:"
    /// A key id: 16 lowercase hex digits.
    public static let keyIdLength = 16
    /// The largest box a field may carry: a 16 KiB value sealed and in base64, with room to spare.
    public static let maxBytes = 24_576

    /// The pseudo-group of a deletion's sealed mark: a box of nothing whose additional data binds the
    /// record and the deletion's clock, so that a server cannot delete what no device deleted.
    public static let tombGroup = "tomb"

    /// The wire name of a group's sealed field.
    public static func fieldName(group: String) -> String { "@" + group }

    /// The group a sealed field carries, or nil for a plain field.
    public static func group(ofField name: String) -> String? { name.hasPrefix("@") ? String(name.dropFirst()) : nil }

    /// The key id a box names, or nil when the text is not a box.
    public static func keyId(of text: String) -> String? {
        let utf8 = text.utf8
        guard utf8.count > prefix.utf8.count + keyIdLength + 1, text.hasPrefix(prefix) else { return nil }
        let id = utf8.dropFirst(prefix.utf8.count).prefix(keyIdLength)
        guard id.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }),
            utf8.dropFirst(prefix.utf8.count + keyIdLength).first == UInt8(ascii: ":")
        else { return nil }
        return String(decoding: id, as: UTF8.self)
    }

    /// The bytes a box's AEAD authenticates besides its plaintext.
    public static func additionalData(entity: String, entityId: String, group: String, clock: HLC, keyId: String) -> Data {
        Data(["grove-sealed-v1", entity, entityId, group, clock.description, keyId].joined(separator: "\u{0}").utf8)
    }
}

extension SyncEntity {
    /// Every entity's sealed shape, by name (made once: a push looks one up per mutation).
    public static let sealedByName: [String: SyncEntity] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0.sealed) })

    /// The shape of this entity on an encrypted account: one optional-or-required text field per
    /// group, last writer wins by clock (the server cannot read the values a rule would compare;
    /// every device applies the entity's own rule when it opens them), and the optional mark a
    /// deletion carries (`SealedValue.tombGroup`), kept with the tombstone.
    public var sealed: SyncEntity {
        SyncEntity(
            name: name, table: table, keyColumn: keyColumn, singleton: singleton,
            groups: groups.map { group in
                Group(
                    name: group.name,
                    fields: [
                        Field(
                            column: "", wire: SealedValue.fieldName(group: group.name), kind: .text,
                            optional: group.fields.allSatisfy(\.optional))
                    ])
            } + [
                Group(
                    name: SealedValue.tombGroup,
                    fields: [Field(column: "", wire: SealedValue.fieldName(group: SealedValue.tombGroup), kind: .text, optional: true)])
            ],
            rule: .lastWriterWins, stickyDelete: stickyDelete, references: [], bootstrapClockColumn: nil, localOnly: nil)
    }
}
