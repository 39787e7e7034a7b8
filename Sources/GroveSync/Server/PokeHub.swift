import Foundation
import GroveCore

/// Live fan-out of "your history moved" to the open event streams of each user's devices.
///
/// Each stream holds a connection of the server's cap: an account has at most `perAccount` open, a
/// device `perDevice`. A stream past either ends the oldest of the device's (or the account's) —
/// a client reconnecting before its old stream noticed the drop is not refused, and one account
/// cannot take the places every other account needs.
public actor PokeHub {
    private var streams: [Int64: [UUID: AsyncStream<Int64>.Continuation]] = [:]
    /// The user and device each stream belongs to (a revocation ends that device's streams).
    private var owners: [UUID: (user: Int64, device: UUID)] = [:]
    /// When each stream opened, in order (the oldest ends first).
    private var opened: [UUID: UInt64] = [:]
    private var nextOpening: UInt64 = 0
    /// Streams an account may hold open at once.
    public let perAccount: Int
    /// Streams a device may hold open at once (a browser tab and the background sync, and a reconnect).
    public let perDevice: Int

    public init(perAccount: Int = 32, perDevice: Int = 4) {
        self.perAccount = perAccount
        self.perDevice = perDevice
    }

    /// A stream of the user's new heads, until the caller stops listening (or the account or device
    /// opens more than it may: then the oldest ends).
    public func subscribe(user: Int64, device: UUID? = nil) -> AsyncStream<Int64> {
        if let device {
            let own = owners.filter { $0.value.device == device }.map(\.key)
            if own.count >= perDevice { endOldest(of: own, user: user, keeping: perDevice - 1) }
        }
        if let open = streams[user].map({ Array($0.keys) }), open.count >= perAccount {
            endOldest(of: open, user: user, keeping: perAccount - 1)
        }
        let id = UUID.random()
        let (stream, continuation) = AsyncStream<Int64>.makeStream(bufferingPolicy: .bufferingNewest(1))
        streams[user, default: [:]][id] = continuation
        opened[id] = nextOpening
        nextOpening += 1
        if let device { owners[id] = (user, device) }
        continuation.onTermination = { [weak self] _ in Task { await self?.remove(user: user, id: id) } }
        return stream
    }

    private func endOldest(of ids: [UUID], user: Int64, keeping: Int) {
        for id in ids.sorted(by: { opened[$0, default: 0] < opened[$1, default: 0] }).prefix(max(0, ids.count - keeping)) {
            streams[user]?[id]?.finish()
            remove(user: user, id: id)
        }
    }

    private func remove(user: Int64, id: UUID) {
        streams[user]?[id] = nil
        owners[id] = nil
        opened[id] = nil
        if streams[user]?.isEmpty == true { streams[user] = nil }
    }

    public func poke(user: Int64, head: Int64) {
        for continuation in streams[user]?.values ?? [:].values { continuation.yield(head) }
    }

    /// Ends the streams of revoked devices at once (SYNC.md "A revoked device is gone at once").
    public func disconnect(devices: Set<UUID>) {
        for (id, owner) in owners where devices.contains(owner.device) {
            streams[owner.user]?[id]?.finish()
            remove(user: owner.user, id: id)
        }
    }

    public var listeners: Int { streams.values.reduce(0) { $0 + $1.count } }

    /// The users with at least one open stream.
    public var users: [Int64] { Array(streams.keys) }
}
