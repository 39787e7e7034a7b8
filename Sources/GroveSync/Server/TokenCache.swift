import Foundation

/// The devices whose tokens this instance has checked, by token prefix: what never changes for a
/// device (its id, its user, its token's digest) and when it was last marked seen. Bounded: past
/// `capacity` entries it starts again empty (a lookup in the store refills what is used).
final class TokenCache: @unchecked Sendable {
    private struct Entry: Sendable {
        var caller: SyncService.Caller
        var seen: Date
    }

    /// Guarded by `lock` (macOS 14 has no `Mutex`).
    private var entries: [String: Entry] = [:]
    private let lock = NSLock()
    private let capacity: Int

    init(capacity: Int = 100_000) {
        self.capacity = capacity
    }

    func caller(_ prefix: String) -> (SyncService.Caller, Date)? {
        lock.withLock { entries[prefix].map { ($0.caller, $0.seen) } }
    }

    func remember(_ prefix: String, _ caller: SyncService.Caller, seen: Date) {
        lock.withLock {
            if entries.count >= capacity, entries[prefix] == nil { entries.removeAll(keepingCapacity: true) }
            entries[prefix] = Entry(caller: caller, seen: seen)
        }
    }

    func forget(deviceId: UUID) {
        lock.withLock {
            for (prefix, entry) in entries where entry.caller.device.id == deviceId { entries[prefix] = nil }
        }
    }
}
