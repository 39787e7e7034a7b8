import Foundation
import GroveCore
import GroveStore
import Hummingbird

/// Values computed from the store, kept until the data changes (a new generation) or they expire.
final class ResponseCache: @unchecked Sendable {
    private struct Entry { var generation: Int; var expires: Date?; var value: Any }
    private let lock = NSLock()
    private var entries: [String: Entry] = [:]

    func value<T>(_ key: String, generation: Int, now: Date, compute: () async throws -> (T, Date?)) async throws -> T {
        if let entry = lock.withLock({ entries[key] }), entry.generation == generation, entry.expires.map({ now < $0 }) ?? true,
            let value = entry.value as? T
        {
            return value
        }
        let (value, expires) = try await compute()
        lock.withLock { entries[key] = Entry(generation: generation, expires: expires, value: value) }
        return value
    }
}

extension ResponseCache {
    /// The JSON of `read`, computed on the store's threads on a miss and kept until any commit (this
    /// process's or another's) makes a new generation: for routes whose answer depends on data only.
    func json<T: Encodable>(
        _ key: String, monitor: ChangeMonitor, database: AppDatabase,
        _ read: @escaping @Sendable (AppDatabase) throws -> T
    ) async throws -> RawJSON {
        RawJSON(
            data: try await value(key, generation: monitor.freshGeneration, now: database.environment.now()) {
                try await database.run { database -> (Data, Date?) in
                    (try GroveExport.makeEncoder(pretty: false).encode(read(database)), nil)
                }
            })
    }
}
