import Foundation
import GroveCore
import GroveStore

/// The running session (or break) as `GET /focus/current` encodes it, remembered until any commit
/// makes a new generation or it falls due.
///
/// Not a response cache: the answer's live figures (`remaining`, `progress`) change with every request,
/// so the route-declared cache (`ResponseCacheMiddleware`) cannot keep it. What stays true is the
/// session and its clock anchor; a request computes the rest from them without touching the store.
final class CurrentFocusMemo: @unchecked Sendable {
    private struct Entry { var generation: Int; var expires: Date?; var value: FocusStatusJSON? }
    private let lock = NSLock()
    private var entry: Entry?

    /// The remembered value, or `read`'s (on the store's threads: the one hop a miss takes).
    func value(
        generation: Int, now: Date, database: AppDatabase,
        read: @escaping @Sendable (AppDatabase) throws -> (FocusStatusJSON?, Date?)
    ) async throws -> FocusStatusJSON? {
        if let entry = lock.withLock({ entry }), entry.generation == generation, entry.expires.map({ now < $0 }) ?? true {
            return entry.value
        }
        let (value, expires) = try await database.run(read)
        lock.withLock { entry = Entry(generation: generation, expires: expires, value: value) }
        return value
    }
}
