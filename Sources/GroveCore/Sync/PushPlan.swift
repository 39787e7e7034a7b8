import Foundation

/// Identifies one entity of one user on the server.
public struct EntityKey: Hashable, Sendable, Comparable, Codable {
    public var entity: String
    public var id: String
    public init(entity: String, id: String) {
        self.entity = entity
        self.id = id
    }
    public static func < (a: EntityKey, b: EntityKey) -> Bool { (a.entity, a.id) < (b.entity, b.id) }
}

/// An entity row as the server writes it.
public struct EntityWrite: Sendable, Equatable {
    public var key: EntityKey
    public var state: SyncState
    public var seq: Int64
    public var deleted: Bool
    /// An open focus session (the server keeps these indexed to close superseded ones).
    public var open: Bool
    /// The state is exactly what the pushing device sent (it holds it already): its pulls skip it.
    public var echoesWriter: Bool
    /// `entity/id/hlc`: what sat at this position of the user's history (restore detection).
    public var digest: String { "\(key.entity)/\(key.id)/\(state.latest?.description ?? "")" }
}

/// Why a push was refused as a whole (nothing of it was applied).
public enum PushRefusal: Error, Equatable, Sendable {
    /// The first new mutation id is not the one after the last the server holds.
    case gap(expected: Int64, got: Int64, lastMutationId: Int64)
    /// A mutation's clock is ahead of the server's time by more than the allowed drift.
    case clockDrift(mutationId: Int64, serverTime: Date)
    /// A mutation is malformed (unknown entity, unknown field, wrong type…).
    case invalid(mutationId: Int64, field: String, message: String)
    /// The body carries another schema version.
    case unsupportedSchema(Int)
    /// A mutation id the server holds came with other content: two stores use this device's identity
    /// (a copied store). The sender must register as a new device.
    case deviceCloned(lastMutationId: Int64)
    /// A plain value pushed to an encrypted account: the whole push is refused (it is not set aside as
    /// one bad value would be — the device must seal everything, or it lacks the key).
    case notSealed(mutationId: Int64, field: String)
    /// A box sealed under another key than the account's current one (a retired key, or a device
    /// holding the wrong key): refused whole, nothing stored.
    case wrongKey(mutationId: Int64, keyId: String, current: String)
}

/// The server's merge of one push, as a pure function of what it holds: which rows change, under
/// which sequence numbers. Every `SyncStore` loads the rows a push touches, asks this, and writes the
/// result in the same transaction — so the SQLite and PostgreSQL servers cannot merge differently.
public struct PushPlan: Sendable {
    public var writes: [EntityWrite] = []
    public var head: Int64
    public var lastMutationId: Int64
    /// The mutations of this push that were new (the rest were replays of acknowledged ones).
    public var applied: Int = 0

    /// The server clock's node (all zeros: no device has it).
    public static let serverNode = "0000000000000000"

    /// Plans `mutations` over `stored` (every entity they touch, absent when the server has none) and
    /// `openSessions` (the user's open focus sessions), given the device's last id and the user's head.
    ///
    /// `sealedKey` is the account's key id when it is encrypted: then every put carries sealed groups
    /// under that key, merged by clock alone (the entities' `sealed` shapes), and no value is read.
    public static func make(
        schemaVersion: Int, mutations: [SyncMutation], lastMutationId: Int64, head: Int64,
        stored: [EntityKey: SyncState], openSessions: [EntityKey: SyncState], now: Date, sealedKey: String? = nil
    ) throws(PushRefusal) -> PushPlan {
        guard schemaVersion == SyncWire.schemaVersion else { throw .unsupportedSchema(schemaVersion) }
        var plan = PushPlan(head: head, lastMutationId: lastMutationId)
        var current = stored
        var open = openSessions
        var touched: [EntityKey] = []
        var echoes = Set<EntityKey>()
        let nowMillis = now.groveMillis
        var newest = HLC(millis: nowMillis, counter: 0, node: serverNode)
        for mutation in mutations {
            if mutation.id <= plan.lastMutationId { continue }
            guard mutation.id == plan.lastMutationId + 1 else {
                throw .gap(expected: plan.lastMutationId + 1, got: mutation.id, lastMutationId: lastMutationId)
            }
            guard let plain = SyncEntity.named(mutation.entity) else {
                // A change set aside by its device stands in the sequence as a skip, whatever it named:
                // refusing the skip too would refuse the same mutation forever.
                if mutation.op == .skip {
                    plan.lastMutationId = mutation.id
                    continue
                }
                throw .invalid(mutationId: mutation.id, field: "entity", message: "Unknown entity \(mutation.entity.prefix(40))")
            }
            let entity = sealedKey == nil ? plain : SyncEntity.sealedByName[plain.name] ?? plain.sealed
            if let sealedKey { try checkSealed(mutation, key: sealedKey) }
            let incoming: SyncState
            do {
                incoming = try mutation.state(of: entity)
                if sealedKey == nil { try SyncValueRules.checkFields(entity, incoming.fields) }
            } catch {
                throw .invalid(mutationId: mutation.id, field: error.field, message: error.message)
            }
            for clock in [incoming.latest].compactMap({ $0 }) + Array(incoming.clocks.values) where clock.millis - nowMillis > HLC.maxDrift
            {
                _ = clock
                throw .clockDrift(mutationId: mutation.id, serverTime: now)
            }
            if let latest = incoming.latest, latest > newest {
                newest = HLC(millis: latest.millis, counter: latest.counter, node: serverNode)
            }
            plan.lastMutationId = mutation.id
            plan.applied += 1
            let key = EntityKey(entity: entity.name, id: mutation.entityId)
            var before = current[key] ?? SyncState()
            // A row from before the account was encrypted: its plain groups lose to any box, whatever
            // their clocks (a re-sent row keeps its clock), so that no plain value outlives encryption.
            if sealedKey != nil { before = sealedPart(of: before) }
            let after = SyncState.join(before, incoming, entity: entity)
            guard after != before else { continue }
            // Never an incomplete row (SYNC.md "Past the horizon, pull first"): an edit of a row the
            // server does not hold whole (deleted and pruned, or never sent) is taken and dropped; a
            // device that pulls cannot create a row from it, and would park it forever.
            guard after.isDeleted(entity) || after.isComplete(entity) else { continue }
            if sealedKey == nil {
                do { try SyncValueRules.checkRow(entity, after) } catch {
                    throw .invalid(mutationId: mutation.id, field: error.field, message: error.message)
                }
            }
            current[key] = after
            if after == incoming { echoes.insert(key) } else { echoes.remove(key) }
            touched.removeAll { $0 == key }
            touched.append(key)
            if entity == .focusSession {
                if isOpen(after, entity) { open[key] = after } else { open[key] = nil }
            }
        }
        // Two open focus sessions: the later start stays open, the others close (closes go first).
        var closes: [EntityKey] = []
        while open.count > 1 {
            let sessions = open.sorted { $0.key < $1.key }
            guard let first = sessions.first, let second = sessions.dropFirst().first,
                let (_, close) = FocusSupersession.resolve(
                    (first.key.id, first.value.fields), (second.key.id, second.value.fields), notAfter: now)
            else { break }
            let key = EntityKey(entity: SyncEntity.focusSession.name, id: close.id)
            newest = newest.tick(now: now)
            var state = open[key] ?? SyncState()
            state.fields = close.fields
            state.clocks[SyncEntity.focusSession.groups[0].name] = newest
            current[key] = state
            open[key] = nil
            touched.removeAll { $0 == key }
            echoes.remove(key)
            closes.append(key)
        }
        for key in closes + touched {
            guard let state = current[key], let entity = SyncEntity.named(key.entity) else { continue }
            plan.head += 1
            plan.writes.append(
                EntityWrite(
                    key: key, state: state, seq: plan.head, deleted: state.isDeleted(entity),
                    open: entity == .focusSession && isOpen(state, entity), echoesWriter: echoes.contains(key)))
        }
        return plan
    }

    /// Refuses a put that carries a plain field, or a box under another key than `key`.
    /// (The fields are looked at in name order only when one is refused: the refusal names the same one
    /// whatever order the body had, and a push that passes sorts nothing.)
    static func checkSealed(_ mutation: SyncMutation, key: String) throws(PushRefusal) {
        // A deletion on an encrypted account carries its sealed mark: one without is not the owner's.
        if mutation.op == .delete, mutation.fields.isEmpty {
            throw .notSealed(mutationId: mutation.id, field: SealedValue.fieldName(group: SealedValue.tombGroup))
        }
        func keyId(_ name: String, _ value: SyncValue) -> String? {
            guard SealedValue.group(ofField: name) != nil, case .text(let text) = value else { return nil }
            return SealedValue.keyId(of: text)
        }
        guard mutation.fields.contains(where: { keyId($0.key, $0.value) != key }) else { return }
        for (name, value) in mutation.fields.sorted(by: { $0.key < $1.key }) {
            guard let id = keyId(name, value) else { throw .notSealed(mutationId: mutation.id, field: name) }
            guard id == key else { throw .wrongKey(mutationId: mutation.id, keyId: id, current: key) }
        }
    }

    /// The sealed groups of a stored state (with their clocks), its tombstone and its last insert.
    static func sealedPart(of state: SyncState) -> SyncState {
        var result = SyncState(alive: state.alive, tomb: state.tomb)
        for (name, clock) in state.clocks {
            guard let value = state.fields[SealedValue.fieldName(group: name)] else { continue }
            result.clocks[name] = clock
            result.fields[SealedValue.fieldName(group: name)] = value
        }
        return result
    }

    static func isOpen(_ state: SyncState, _ entity: SyncEntity) -> Bool {
        guard !state.isDeleted(entity), let value = state.fields["state"]?.text else { return false }
        return value == "active" || value == "paused"
    }
}
