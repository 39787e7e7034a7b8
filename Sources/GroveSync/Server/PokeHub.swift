import Foundation

/// Live fan-out of "your history moved" to the open event streams of each user's devices.
public actor PokeHub {
    private var streams: [Int64: [UUID: AsyncStream<Int64>.Continuation]] = [:]
    /// The user and device each stream belongs to (a revocation ends that device's streams).
    private var owners: [UUID: (user: Int64, device: UUID)] = [:]

    public init() {}

    /// A stream of the user's new heads, until the caller stops listening.
    public func subscribe(user: Int64, device: UUID? = nil) -> AsyncStream<Int64> {
        let id = UUID()
        let (stream, continuation) = AsyncStream<Int64>.makeStream(bufferingPolicy: .bufferingNewest(1))
        streams[user, default: [:]][id] = continuation
        if let device { owners[id] = (user, device) }
        continuation.onTermination = { [weak self] _ in Task { await self?.remove(user: user, id: id) } }
        return stream
    }

    private func remove(user: Int64, id: UUID) {
        streams[user]?[id] = nil
        owners[id] = nil
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

    /// Ends every stream (graceful shutdown).
    public func finishAll() {
        for continuation in streams.values.flatMap(\.values) { continuation.finish() }
        streams = [:]
    }

    public var listeners: Int { streams.values.reduce(0) { $0 + $1.count } }

    /// The users with at least one open stream.
    public var users: [Int64] { Array(streams.keys) }
}
