import Foundation
import GroveCore
import GroveStore
import Logging
import ServiceLifecycle

/// Something open pages should hear about.
public enum ServerEvent: Sendable, Equatable {
    /// Data changed (in this process or another: the CLI, a script); `generation` counts changes.
    case change(generation: Int)
    /// An intention reminder fired.
    case reminder(kind: ReminderKind, prompt: String)
    /// A named timer reached its length (announced once, by whoever noticed first).
    case timerDone(timerId: UUID, name: String)
    /// Nothing happened: keeps idle streams alive and lets the server notice clients that left.
    case heartbeat

    /// The server-sent-events frame for this event.
    var frame: String {
        switch self {
        case .change(let generation): return "event: change\ndata: {\"generation\":\(generation)}\n\n"
        case .reminder(let kind, let prompt):
            return "event: reminder\ndata: \(Self.json(["kind": kind.rawValue, "prompt": prompt]))\n\n"
        case .timerDone(let id, let name):
            return "event: timer\ndata: \(Self.json(["timerId": id.uuidString, "name": name]))\n\n"
        case .heartbeat: return ": keep-alive\n\n"
        }
    }

    /// Text is encoded as JSON, never pasted into it: a name or prompt may hold quotes and newlines.
    private static func json(_ fields: [String: String]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(fields)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}

/// Notices every commit to the database file and tells subscribers.
///
/// GRDB observation only sees writes made through its own pool; the CLI writes the same file from
/// another process. `PRAGMA data_version` on a connection of our own changes whenever any other
/// connection commits, so polling it (cheap: no table is read) catches both. Writes made through the
/// store's own commit hook (`AppDatabase.onCommit`) calls `invalidate()` so that caches drop at once
/// rather than at the next poll.
public final class ChangeMonitor: Service, @unchecked Sendable {
    private let lock = NSLock()
    private var generationValue = 0
    private var subscribers: [UUID: AsyncStream<ServerEvent>.Continuation] = [:]
    private let path: String?
    private let interval: Duration
    private let logger = Logger(label: "grove.live")

    /// - Parameters:
    ///   - path: the database file to watch; nil (in-memory stores) relies on `bump()` alone.
    ///   - interval: how often to look; 100 ms keeps pages well inside the 1 s promise.
    public init(path: String?, interval: Duration = .milliseconds(100)) {
        self.path = path
        self.interval = interval
    }

    /// Increases with every change seen.
    public var generation: Int { lock.withLock { generationValue } }

    /// Records a write made through this server: caches drop at once. Subscribers hear of it from the
    /// poller, which sees the same commit within one interval — so each write makes one event, not
    /// two. (A store without a file has no poller: then subscribers are told here.)
    public func invalidate() {
        if isPolled {
            lock.withLock { generationValue += 1 }
        } else {
            bump()
        }
    }

    private var isPolled: Bool { path != nil && path != ":memory:" }

    /// Records a change and tells every subscriber.
    public func bump() {
        let (generation, targets) = lock.withLock { () -> (Int, [AsyncStream<ServerEvent>.Continuation]) in
            generationValue += 1
            return (generationValue, Array(subscribers.values))
        }
        for target in targets { target.yield(.change(generation: generation)) }
    }

    /// Sends `event` to every subscriber.
    public func broadcast(_ event: ServerEvent) {
        for target in lock.withLock({ Array(subscribers.values) }) { target.yield(event) }
    }

    /// A stream of events until the subscriber goes away.
    public func subscribe() -> AsyncStream<ServerEvent> { subscription().stream }

    /// A stream of events and the id that ends it (`unsubscribe`).
    public func subscription() -> (id: UUID, stream: AsyncStream<ServerEvent>) {
        let id = UUID()
        let (stream, continuation) = AsyncStream<ServerEvent>.makeStream(bufferingPolicy: .bufferingNewest(16))
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            _ = self.lock.withLock { self.subscribers.removeValue(forKey: id) }
        }
        lock.withLock { subscribers[id] = continuation }
        return (id, stream)
    }

    /// Ends one subscriber's stream.
    public func unsubscribe(_ id: UUID) {
        lock.withLock { subscribers.removeValue(forKey: id) }?.finish()
    }

    public var subscriberCount: Int { lock.withLock { subscribers.count } }

    /// The watcher of the file, opened on first use (nil for stores without a file).
    private var watcher: DataVersionWatcher?
    /// Guards `watcher` and `lastVersion` (apart from `lock`, which every request takes).
    private let versionLock = NSLock()
    private var lastVersion: Int?

    /// Asks the file whether anyone committed since the last look, and if so records a change and
    /// tells subscribers. Cheap (no table is read), so caches call it before every answer: a GET that
    /// follows any process's commit never sees the state from before it.
    public func refresh() {
        guard isPolled, let path else { return }
        let changed: Bool = versionLock.withLock {
            do {
                if watcher == nil { watcher = try DataVersionWatcher(path: path) }
                guard let version = try watcher?.version() else { return false }
                defer { lastVersion = version }
                return lastVersion.map { $0 != version } ?? false
            } catch {
                logger.warning("Could not ask the database for changes", metadata: ["error": "\(error)"])
                return false
            }
        }
        if changed { bump() }
    }

    /// The change generation after a fresh look at the file (see `refresh()`).
    public var freshGeneration: Int {
        refresh()
        return generation
    }

    /// Polls the file on a thread of its own until the service stops, so that open pages hear of
    /// commits that no request asked about: the poller must not wait behind request handlers (or
    /// anything else) on Swift's small cooperative pool.
    public func run() async throws {
        guard isPolled else {
            try? await gracefulShutdown()
            return
        }
        refresh()
        let stop = StopFlag()
        let seconds = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
        let heartbeatEvery = max(1, Int(15 / max(seconds, 0.001)))
        let thread = Thread { [self] in
            var polls = 0
            while !stop.isSet {
                polls += 1
                if polls % heartbeatEvery == 0 { broadcast(.heartbeat) }
                refresh()
                Thread.sleep(forTimeInterval: seconds)
            }
        }
        thread.name = "grove.change-monitor"
        thread.start()
        defer {
            stop.set()
            for target in lock.withLock({ Array(subscribers.values) }) { target.finish() }
        }
        try? await gracefulShutdown()
    }
}

/// A flag one thread sets and another reads.
final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
