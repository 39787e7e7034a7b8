import Foundation

/// Everything known about one entity: its fields, the clock of each field group, and when it was
/// last inserted whole (`alive`) or deleted (`tomb`).
///
/// `join` is the one merge rule of Grove Sync, used by the server on every push and by every device
/// on every pull: commutative, associative and idempotent, so that the order, duplication and
/// replay of deliveries cannot change where the devices end up.
public struct SyncState: Hashable, Sendable, Codable {
    public var fields: SyncFields
    /// The clock of each group, by group name.
    public var clocks: [String: HLC]
    public var alive: HLC?
    public var tomb: HLC?

    public init(fields: SyncFields = [:], clocks: [String: HLC] = [:], alive: HLC? = nil, tomb: HLC? = nil) {
        self.fields = fields
        self.clocks = clocks
        self.alive = alive
        self.tomb = tomb
    }

    /// Whether the entity is deleted: a tombstone newer than the last whole insert (or any tombstone,
    /// for entities whose deletes are final).
    public func isDeleted(_ entity: SyncEntity) -> Bool {
        guard let tomb else { return false }
        if entity.stickyDelete { return true }
        return alive.map { tomb > $0 } ?? true
    }

    /// Whether every group has a value (a row can be created from it). A group of optional fields
    /// only may be missing — it reads as null: a version written before the group existed is whole.
    public func isComplete(_ entity: SyncEntity) -> Bool {
        entity.groups.allSatisfy { clocks[$0.name] != nil || $0.fields.allSatisfy(\.optional) }
    }

    /// The newest clock in the state.
    public var latest: HLC? { (Array(clocks.values) + [alive, tomb].compactMap { $0 }).max() }

    /// The merge of two versions of `entity`.
    public static func join(_ a: SyncState, _ b: SyncState, entity: SyncEntity) -> SyncState {
        var result = SyncState(alive: max(a.alive, b.alive), tomb: max(a.tomb, b.tomb))
        for group in entity.groups {
            let left = a.clocks[group.name], right = b.clocks[group.name]
            let winner: SyncState?
            switch (left, right) {
            case (nil, nil): winner = nil
            case (.some, nil): winner = a
            case (nil, .some): winner = b
            case (.some(let l), .some(let r)): winner = prefers(b, r, over: a, l, group: group, entity: entity) ? b : a
            }
            guard let winner, let clock = winner.clocks[group.name] else { continue }
            result.clocks[group.name] = clock
            for field in group.fields { result.fields[field.wire] = winner.fields[field.wire] ?? .null }
        }
        return result
    }

    /// Whether `b`'s version of a group (clock `r`) beats `a`'s (clock `l`): a total order, so that
    /// the merge is the same whatever order versions meet in.
    private static func prefers(_ b: SyncState, _ r: HLC, over a: SyncState, _ l: HLC, group: SyncEntity.Group, entity: SyncEntity) -> Bool
    {
        if case .terminal(let stateField, let terminalStates, let endField) = entity.rule,
            group.fields.contains(where: { $0.wire == stateField })
        {
            // Terminal beats open; between terminals the earlier end; then the later clock.
            let aTerminal = a.fields[stateField]?.text.map(terminalStates.contains) ?? false
            let bTerminal = b.fields[stateField]?.text.map(terminalStates.contains) ?? false
            if aTerminal != bTerminal { return bTerminal }
            if aTerminal {
                let aEnd = a.fields[endField]?.int ?? .max, bEnd = b.fields[endField]?.int ?? .max
                if aEnd != bEnd { return bEnd < aEnd }
            }
        }
        if l != r { return r > l }
        // One clock, two values: only stores sharing a device identity (a copied store) can do this.
        // Any fixed choice keeps the merge order-free: the greater values.
        let left = group.fields.map { a.fields[$0.wire] ?? .null }, right = group.fields.map { b.fields[$0.wire] ?? .null }
        return left.lexicographicallyPrecedes(right)
    }
}

private func max(_ a: HLC?, _ b: HLC?) -> HLC? {
    switch (a, b) {
    case (nil, _): b
    case (_, nil): a
    case (.some(let x), .some(let y)): Swift.max(x, y)
    }
}

extension HLC: Codable {
    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        let text = try c.decode(String.self)
        guard let clock = HLC(text) else {
            throw DecodingError.dataCorruptedError(
                in: c, debugDescription: "Not a clock (expected 2025-05-14T09:30:00.000Z-0001-<16 hex digits>): \(text.prefix(60))")
        }
        self = clock
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}
