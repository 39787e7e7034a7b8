import Foundation
import GroveCore
import GroveHTTP
import GroveStore
import Hummingbird
import NIOCore

/// Answers the read routes people's pages and scripts poll from memory: a GET's whole response is
/// kept until any commit (this process's or another's: the change monitor's generation, looked at
/// before every answer; `DataVersionWatcher`) or until its answer would change with the time — the local
/// midnight for answers about today, the minute for reminder times, the second for pages that show
/// countdowns, and always the instant the open focus session falls due (it then completes).
///
/// Only successful answers are kept (never a problem, never one that sets a cookie), at most
/// `maxEntries` of at most `maxEntryBytes`, `maxBytes` in all, the least recently used going first:
/// memory stays bounded whatever URLs are asked for.
struct ResponseCacheMiddleware: RouterMiddleware {
    typealias Context = GroveRequestContext

    /// How long an answer stays true while the data is unchanged.
    enum Freshness: Equatable, CaseIterable {
        /// Until the data changes.
        case data
        /// Until the local day ends (answers about "today").
        case day
        /// Until the minute turns (reminder fire times are whole minutes).
        case minute
        /// Until the second turns (pages that show a countdown in whole seconds).
        case second
    }

    /// How long the answers of this middleware's routes are kept (one middleware per route group).
    let freshness: Freshness
    let monitor: ChangeMonitor
    let database: AppDatabase
    let store: ResponseStore

    init(freshness: Freshness, monitor: ChangeMonitor, database: AppDatabase, store: ResponseStore = ResponseStore()) {
        self.freshness = freshness
        self.monitor = monitor
        self.database = database
        self.store = store
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // A kept answer needs no store, so the hop to the store's threads is taken on a miss only, and
        // once: the handler and the answer's expiry both run there.
        guard request.method == .get || request.method == .head else {
            return try await withTaskExecutorPreference(StoreExecutor.shared) { try await next(request, context) }
        }
        let key = request.uri.description
        let generation = monitor.freshGeneration
        let now = database.environment.now()
        if let hit = store.answer(key, generation: generation, now: now) { return hit }
        return try await withTaskExecutorPreference(StoreExecutor.shared) {
            let response = try await next(request, context)
            guard response.status == .ok, response.headers[.setCookie] == nil else { return response }
            let body = try await response.body.collected()
            let expires = try Self.expiry(freshness, now: now, database: database)
            store.keep(key, generation: generation, expires: expires, status: response.status, headers: response.headers, body: body)
            return Response(status: response.status, headers: response.headers, body: .init(byteBuffer: body))
        }
    }

    /// When an answer computed at `now` stops being true with unchanged data.
    static func expiry(_ freshness: Freshness, now: Date, database: AppDatabase) throws -> Date? {
        // Whatever the route, the open session completes at its due instant: every answer about it changes.
        let due = try database.focus.current()?.dueAt
        let limit: Date?
        switch freshness {
        case .data: limit = nil
        case .day:
            let calendar = try database.calendar()
            limit = calendar.startOfDay(calendar.nextDay(after: calendar.localDay(of: now)))
        case .minute: limit = Date(timeIntervalSince1970: (now.timeIntervalSince1970 / 60).rounded(.down) * 60 + 60)
        case .second: limit = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down) + 1)
        }
        return [limit, due].compactMap { $0 }.min()
    }

}

/// The kept answers, bounded in count and bytes, least recently used out first.
final class ResponseStore: @unchecked Sendable {
    struct Entry {
        var generation: Int
        var expires: Date?
        var status: HTTPResponse.Status
        var headers: HTTPFields
        var body: ByteBuffer
        var used: UInt64
    }

    let maxEntries: Int
    let maxBytes: Int
    let maxEntryBytes: Int
    private let lock = NSLock()
    private var entries: [String: Entry] = [:]
    private var bytes = 0
    private var clock: UInt64 = 0
    private var served = 0

    init(maxEntries: Int = 128, maxBytes: Int = 2 << 20, maxEntryBytes: Int = 256 << 10) {
        self.maxEntries = maxEntries
        self.maxBytes = maxBytes
        self.maxEntryBytes = maxEntryBytes
    }

    /// How many answers are kept and their bytes (tests; the bound).
    var footprint: (entries: Int, bytes: Int) { lock.withLock { (entries.count, bytes) } }
    /// How many requests were answered from memory.
    var hits: Int { lock.withLock { served } }

    /// The kept answer for `key` if it is still true.
    func answer(_ key: String, generation: Int, now: Date) -> Response? {
        lock.withLock {
            guard var entry = entries[key] else { return nil }
            guard entry.generation == generation, entry.expires.map({ now < $0 }) ?? true else {
                bytes -= entry.body.readableBytes
                entries[key] = nil
                return nil
            }
            clock += 1
            served += 1
            entry.used = clock
            entries[key] = entry
            return Response(status: entry.status, headers: entry.headers, body: .init(byteBuffer: entry.body))
        }
    }

    func keep(_ key: String, generation: Int, expires: Date?, status: HTTPResponse.Status, headers: HTTPFields, body: ByteBuffer) {
        guard body.readableBytes <= maxEntryBytes else { return }
        lock.withLock {
            if let old = entries.removeValue(forKey: key) { bytes -= old.body.readableBytes }
            while !entries.isEmpty, entries.count >= maxEntries || bytes + body.readableBytes > maxBytes {
                guard let oldest = entries.min(by: { $0.value.used < $1.value.used }) else { break }
                bytes -= oldest.value.body.readableBytes
                entries[oldest.key] = nil
            }
            clock += 1
            entries[key] = Entry(generation: generation, expires: expires, status: status, headers: headers, body: body, used: clock)
            bytes += body.readableBytes
        }
    }
}
