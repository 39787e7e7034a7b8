import Foundation
import GroveCore

/// SYNC.md's merge as the design states it, for the simulation's oracle: each field group takes the
/// greatest of every version ever written under one total order (terminal beats open, then the
/// earlier end between terminals, then the later clock, then the greater values); `alive` and `tomb`
/// are the latest ever written.
///
/// The devices and the server fold versions two at a time (`SyncState.join`). Checking their result
/// with that same join would let a join that is not associative, commutative or idempotent in some
/// corner vouch for itself; this takes the maximum over the whole history at once instead.
enum ReferenceMerge {
    /// The state every replica must reach once it has seen all of `versions` of one `entity`.
    static func merge(_ versions: [SyncState], entity: SyncEntity) -> SyncState {
        var result = SyncState(alive: versions.compactMap(\.alive).max(), tomb: versions.compactMap(\.tomb).max())
        for group in entity.groups {
            let written = versions.filter { $0.clocks[group.name] != nil }
            guard let winner = written.max(by: { rank($0, group, entity) < rank($1, group, entity) }),
                let clock = winner.clocks[group.name]
            else { continue }
            result.clocks[group.name] = clock
            for field in group.fields { result.fields[field.wire] = winner.fields[field.wire] ?? .null }
        }
        return result
    }

    /// A version's place in the order of one group, greatest winning.
    private struct Rank: Comparable {
        var terminal: Bool
        /// The negated end of a terminal version (the earlier end ranks higher); 0 otherwise.
        var earlierEnd: Int64
        var clock: HLC
        var values: [SyncValue]

        static func < (a: Rank, b: Rank) -> Bool {
            if a.terminal != b.terminal { return !a.terminal }
            if a.earlierEnd != b.earlierEnd { return a.earlierEnd < b.earlierEnd }
            if a.clock != b.clock { return a.clock < b.clock }
            return a.values.lexicographicallyPrecedes(b.values)
        }
    }

    private static func rank(_ version: SyncState, _ group: SyncEntity.Group, _ entity: SyncEntity) -> Rank {
        var terminal = false, earlierEnd: Int64 = 0
        if case .terminal(let stateField, let terminalStates, let endField) = entity.rule,
            group.fields.contains(where: { $0.wire == stateField })
        {
            terminal = version.fields[stateField]?.text.map(terminalStates.contains) ?? false
            // A terminal version without an end ranks after every end (as `join` reads it: the latest).
            if terminal { earlierEnd = -(version.fields[endField]?.int ?? .max) }
        }
        return Rank(
            terminal: terminal, earlierEnd: earlierEnd, clock: version.clocks[group.name] ?? HLC(millis: 0, counter: 0, node: ""),
            values: group.fields.map { version.fields[$0.wire] ?? .null })
    }
}
