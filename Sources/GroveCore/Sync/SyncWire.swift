import Foundation

/// The `/sync/v1` wire format (SYNC.md "Wire"). Every body is JSON; the user always comes from the
/// token, never from a body.
public enum SyncWire {
    /// The version of the mutation and change format; a push of another is refused.
    public static let schemaVersion = 1
    /// The most mutations one push may carry; a client splits larger batches.
    public static let maxMutationsPerPush = 1000
    /// The most bytes one push body may have (the server answers 413 above it; the client splits).
    public static let maxPushBytes = 4 * 1024 * 1024
    /// The default and largest pull page.
    public static let defaultPullLimit = 500
    public static let maxPullLimit = 5000
}

/// `POST /sync/v1/devices`: register a device with the account's password, once.
public struct DeviceRegistration: Codable, Sendable {
    public var user: String
    public var password: String
    public var deviceName: String
    public init(user: String, password: String, deviceName: String) {
        self.user = user
        self.password = password
        self.deviceName = deviceName
    }
}

/// The answer to a registration: the device's id and its token (shown once, stored hashed).
public struct DeviceCredentials: Codable, Sendable {
    public var deviceId: UUID
    public var token: String
    public init(deviceId: UUID, token: String) {
        self.deviceId = deviceId
        self.token = token
    }
}

/// A device asking a server restored from an older backup to take it back (`POST /sync/v1/devices/reclaim`,
/// with its token): the token itself is the proof, a MAC the server made under its own secret when it
/// issued it, over the device's id and its account's.
public struct DeviceReclaim: Codable, Sendable {
    public var deviceId: UUID
    public var user: String
    public var deviceName: String
    public init(deviceId: UUID, user: String, deviceName: String) {
        self.deviceId = deviceId
        self.user = user
        self.deviceName = deviceName
    }
}

/// One device of the account, as `grove sync devices` lists it.
public struct DeviceInfo: Codable, Sendable, Hashable {
    public var deviceId: UUID
    public var name: String
    public var createdAt: Date
    public var lastSeen: Date?
    public var lastMutationId: Int64
    public var revoked: Bool
    /// The device this one was forked from (a copied store registered as a device of its own); a
    /// revocation of that device revokes this one too.
    public var parentId: UUID?
    /// When the device was taken back by a server restored from a backup older than it (a device
    /// revoked after that backup would come back too: the owner sees it here and revokes it again).
    public var reclaimedAt: Date?
    public init(
        deviceId: UUID, name: String, createdAt: Date, lastSeen: Date?, lastMutationId: Int64, revoked: Bool, parentId: UUID? = nil,
        reclaimedAt: Date? = nil
    ) {
        self.parentId = parentId
        self.reclaimedAt = reclaimedAt
        self.deviceId = deviceId
        self.name = name
        self.createdAt = createdAt
        self.lastSeen = lastSeen
        self.lastMutationId = lastMutationId
        self.revoked = revoked
    }
}

/// One local change on its way to the server.
public struct SyncMutation: Codable, Sendable, Hashable {
    public enum Operation: String, Codable, Sendable {
        case put, delete
        /// A mutation the server refused, set aside on the device that made it: it keeps its id, so
        /// that the device's ids still follow on, and changes nothing anywhere.
        case skip
    }
    /// The device's own number for it: 1, 2, 3… without gaps.
    public var id: Int64
    /// The newest clock it carries.
    public var hlc: HLC
    public var entity: String
    public var entityId: String
    public var op: Operation
    /// The changed groups' fields (puts), by wire name.
    public var fields: SyncFields
    /// Each changed group's clock; a group absent here takes `hlc`.
    public var clocks: [String: HLC]?
    /// Set when the put is a whole-row insert (it revives a row deleted before it).
    public var insert: Bool?
    /// An insert's own clock, when older than `hlc` (SYNC.md "Re-sent rows keep their stored clocks"):
    /// a row re-sent after a restore, a reset or with a later edit revives nothing deleted after it
    /// was made. Absent: `hlc`.
    public var alive: HLC?

    public init(
        id: Int64, hlc: HLC, entity: String, entityId: String, op: Operation, fields: SyncFields = [:],
        clocks: [String: HLC]? = nil, insert: Bool? = nil, alive: HLC? = nil
    ) {
        self.alive = alive
        self.id = id
        self.hlc = hlc
        self.entity = entity
        self.entityId = entityId
        self.op = op
        self.fields = fields
        self.clocks = clocks
        self.insert = insert
    }

    /// The state this mutation asserts, checked against the entity's fields; throws naming the field.
    public func state(of entity: SyncEntity) throws(InvalidField) -> SyncState {
        guard entityId.utf8.count <= 128, !entityId.isEmpty else { throw InvalidField("entityId", "An entity id has 1 to 128 bytes") }
        if let singleton = entity.singleton, entityId != singleton {
            throw InvalidField("entityId", "The \(entity.name) entity has the single id \(singleton)")
        }
        switch op {
        case .delete:
            if fields.isEmpty { return SyncState(tomb: hlc) }
            // On an encrypted account (its sealed shape): the deletion's sealed mark, and nothing else.
            let markName = SealedValue.fieldName(group: SealedValue.tombGroup)
            guard fields.count == 1, let mark = fields[markName], let group = entity.group(named: SealedValue.tombGroup),
                let field = group.fields.first
            else { throw InvalidField("fields", "A delete carries no fields (on an encrypted account, its sealed mark only)") }
            try Self.check(mark, field, name: "fields.\(markName)")
            return SyncState(fields: [markName: mark], clocks: [SealedValue.tombGroup: hlc], tomb: hlc)
        case .skip:
            guard fields.isEmpty, clocks == nil, insert == nil, alive == nil else {
                throw InvalidField("fields", "A skip carries nothing")
            }
            return SyncState()
        case .put:
            var state = SyncState()
            var groupsSeen = Set<String>()
            for (name, value) in fields {
                guard let index = entity.groupIndex(ofField: name),
                    let field = entity.groups[index].fields.first(where: { $0.wire == name })
                else { throw InvalidField("fields.\(name)", "The \(entity.name) entity has no field \(name)") }
                try Self.check(value, field, name: "fields.\(name)")
                state.fields[name] = value
                groupsSeen.insert(entity.groups[index].name)
            }
            for name in groupsSeen {
                guard let group = entity.group(named: name) else { continue }
                for field in group.fields where fields[field.wire] == nil {
                    throw InvalidField(
                        "fields.\(field.wire)", "\(field.wire) travels with \(group.fields.map(\.wire).joined(separator: ", "))")
                }
                let clock = clocks?[name] ?? hlc
                guard clock <= hlc else { throw InvalidField("clocks.\(name)", "A group's clock cannot be newer than the mutation's hlc") }
                state.clocks[name] = clock
            }
            if let clocks, let extra = clocks.keys.first(where: { !groupsSeen.contains($0) }) {
                throw InvalidField("clocks.\(extra)", "A clock for a group this put does not carry")
            }
            guard !groupsSeen.isEmpty else { throw InvalidField("fields", "A put carries at least one field") }
            if insert == true {
                guard state.isComplete(entity) else { throw InvalidField("insert", "An insert carries every field of \(entity.name)") }
                if let alive, alive > hlc { throw InvalidField("alive", "An insert's clock cannot be newer than the mutation's hlc") }
                state.alive = alive ?? hlc
            } else if alive != nil {
                throw InvalidField("alive", "Only an insert carries its own clock")
            }
            return state
        }
    }

    private static func check(_ value: SyncValue, _ field: SyncEntity.Field, name: String) throws(InvalidField) {
        switch (value, field.kind) {
        case (.null, _): guard field.optional else { throw InvalidField(name, "\(field.wire) cannot be null") }
        case (.text(let text), .text):
            let limit = SealedValue.group(ofField: field.wire) == nil ? 16_384 : SealedValue.maxBytes
            guard text.utf8.count <= limit else { throw InvalidField(name, "\(field.wire) has at most \(limit) bytes") }
        case (.int, .integer), (.bool, .bool): break
        case (.int(let value), .bool): guard value == 0 || value == 1 else { throw InvalidField(name, "\(field.wire) is a boolean") }
        default:
            let expected =
                switch field.kind {
                case .text: "a string";
                case .integer: "an integer";
                case .bool: "a boolean"
                }
            throw InvalidField(name, "\(field.wire) must be \(expected)")
        }
    }

    /// A rough size in bytes (the client's split point).
    public var approximateSize: Int {
        200 + entityId.utf8.count + fields.reduce(0) { $0 + $1.key.utf8.count + $1.value.approximateSize + 60 }
    }
}

/// `POST /sync/v1/push`.
public struct PushRequest: Codable, Sendable {
    public var deviceId: UUID
    public var schemaVersion: Int
    public var mutations: [SyncMutation]
    public init(deviceId: UUID, schemaVersion: Int = SyncWire.schemaVersion, mutations: [SyncMutation]) {
        self.deviceId = deviceId
        self.schemaVersion = schemaVersion
        self.mutations = mutations
    }
}

public struct PushResponse: Codable, Sendable, Equatable {
    /// The last mutation id the server holds from this device (after this push).
    public var lastMutationId: Int64
    /// The user's sequence head after the push.
    public var cursor: Int64
    public var serverTime: Date
    public init(lastMutationId: Int64, cursor: Int64, serverTime: Date) {
        self.lastMutationId = lastMutationId
        self.cursor = cursor
        self.serverTime = serverTime
    }
}

/// One entity as the server holds it, at its sequence number.
public struct SyncChange: Codable, Sendable, Hashable {
    public var seq: Int64
    public var entity: String
    public var entityId: String
    /// The newest clock of the state.
    public var hlc: HLC?
    public var deleted: Bool
    public var fields: SyncFields
    public var clocks: [String: HLC]
    public var alive: HLC?
    public var tomb: HLC?

    public init(seq: Int64, entity: String, entityId: String, state: SyncState, deleted: Bool) {
        self.seq = seq
        self.entity = entity
        self.entityId = entityId
        self.hlc = state.latest
        self.deleted = deleted
        self.fields = state.fields
        self.clocks = state.clocks
        self.alive = state.alive
        self.tomb = state.tomb
    }

    public var state: SyncState { SyncState(fields: fields, clocks: clocks, alive: alive, tomb: tomb) }
}

/// `GET /sync/v1/pull?cursor=N&limit=500`.
public struct PullResponse: Codable, Sendable {
    public var changes: [SyncChange]
    /// Where the next pull starts.
    public var cursor: Int64
    public var hasMore: Bool
    /// A digest of the user's history up to `cursor` as this server knows it (see `SyncChecksum`):
    /// a device that saw another history at the same position knows the server lost data.
    public var checksum: String
    public var serverTime: Date
    public init(changes: [SyncChange], cursor: Int64, hasMore: Bool, checksum: String, serverTime: Date) {
        self.changes = changes
        self.cursor = cursor
        self.hasMore = hasMore
        self.checksum = checksum
        self.serverTime = serverTime
    }
}

extension SyncWire {
    /// The wire's JSON encoder: instants as milliseconds since 1970, keys sorted (stable bodies).
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        encoder.outputFormatting = .sortedKeys
        return encoder
    }

    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return decoder
    }
}
