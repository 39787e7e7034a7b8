import Foundation

/// Live fan-out of "your history moved" to the open event streams of each user's devices.
public actor PokeHub {
    private var streams: [Int64: [UUID: AsyncStream<Int64>.Continuation]] = [:]

    public init() {}

    /// A stream of the user's new heads, until the caller stops listening.
    public func subscribe(user: Int64) -> AsyncStream<Int64> {
        let id = UUID()
        let (stream, continuation) = AsyncStream<Int64>.makeStream(bufferingPolicy: .bufferingNewest(1))
        streams[user, default: [:]][id] = continuation
        continuation.onTermination = { [weak self] _ in Task { await self?.remove(user: user, id: id) } }
        return stream
    }

    private func remove(user: Int64, id: UUID) {
        streams[user]?[id] = nil
        if streams[user]?.isEmpty == true { streams[user] = nil }
    }

    public func poke(user: Int64, head: Int64) {
        for continuation in streams[user]?.values ?? [:].values { continuation.yield(head) }
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
