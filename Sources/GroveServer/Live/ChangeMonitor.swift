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
/// another process. A thread of its own sleeps until the kernel says the file was written
/// (`CommitWatcher`: no polling, so an idle server does not wake), then asks `PRAGMA data_version`,
/// which changes whenever another connection commits. Writes made through the store's own commit hook
/// (`AppDatabase.onCommit`) call `invalidate()` so that caches drop at once. While pages listen, a
/// heartbeat goes out every 15 s of quiet.
public final class ChangeMonitor: Service, @unchecked Sendable {
    private let lock = NSLock()
    private var generationValue = 0
    private var subscribers: [UUID: AsyncStream<ServerEvent>.Continuation] = [:]
    /// Services that sleep until a change (`changes()`).
    private var changeSignals: [WakeSignal] = []
    private let path: String?
    private let heartbeat: Duration
    private let logger = Logger(label: "grove.live")
    /// The kernel's word on writes to the file (nil for stores without one, or where it cannot watch).
    private let commits: CommitWatcher?

    /// - Parameters:
    ///   - path: the database file to watch; nil (in-memory stores) relies on `bump()` alone.
    ///   - heartbeat: how long a quiet stream waits before a keep-alive.
    public init(path: String?, heartbeat: Duration = .seconds(15)) {
        self.path = path
        self.heartbeat = heartbeat
        commits = (path == nil || path == ":memory:") ? nil : try? CommitWatcher(path: path ?? "")
    }

    /// Increases with every change seen.
    public var generation: Int { lock.withLock { generationValue } }

    /// Records a write made through this server: caches drop at once. Subscribers hear of it from the
    /// watcher, which the kernel wakes for the same commit — so each write makes one event, not two.
    /// (A store without a file has no watcher: then subscribers are told here.)
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
        let (generation, targets, signals) = lock.withLock { () -> (Int, [AsyncStream<ServerEvent>.Continuation], [WakeSignal]) in
            generationValue += 1
            return (generationValue, Array(subscribers.values), changeSignals)
        }
        for target in targets { target.yield(.change(generation: generation)) }
        for signal in signals { signal.signal() }
    }

    /// Sends `event` to every subscriber.
    public func broadcast(_ event: ServerEvent) {
        for target in lock.withLock({ Array(subscribers.values) }) { target.yield(event) }
    }

    /// A stream of events until the subscriber goes away.
    public func subscribe() -> AsyncStream<ServerEvent> { subscription().stream }

    /// A stream of events and the id that ends it (`unsubscribe`).
    public func subscription() -> (id: UUID, stream: AsyncStream<ServerEvent>) {
        let id = UUID.random()
        let (stream, continuation) = AsyncStream<ServerEvent>.makeStream(bufferingPolicy: .bufferingNewest(16))
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            _ = self.lock.withLock { self.subscribers.removeValue(forKey: id) }
        }
        lock.withLock { subscribers[id] = continuation }
        // The watcher waits without a limit while nobody listens: from now on it keeps the heartbeat.
        commits?.poke()
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
    /// How many times the file was asked (`refresh()`): tests count it to catch a return to polling.
    private var looks = 0
    var lookCount: Int { versionLock.withLock { looks } }

    /// Asks the file whether anyone committed since the last look, and if so records a change and
    /// tells subscribers. Cheap (a look at the WAL-index header in shared memory; SQLite is asked
    /// only when it moved: `DataVersionWatcher`), so caches call it before every answer: a GET that
    /// follows any process's commit never sees the state from before it.
    @discardableResult
    public func refresh() -> Bool {
        guard isPolled, let path else { return false }
        let changed: Bool = versionLock.withLock {
            looks += 1
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
        return changed
    }

    /// The change generation after a fresh look at the file (see `refresh()`).
    public var freshGeneration: Int {
        refresh()
        return generation
    }

    /// Watches the file on a thread of its own until the service stops, so that open pages hear of
    /// commits that no request asked about: the watcher must not wait behind request handlers (or
    /// anything else) on Swift's small cooperative pool. It sleeps in the kernel between commits.
    public func run() async throws {
        guard isPolled else {
            try? await gracefulShutdown()
            return
        }
        refresh()
        guard let commits else {
            // The kernel would not watch (no inotify instance left, say): look four times a second
            // rather than leave open pages deaf to other processes' commits.
            logger.warning("Cannot watch the store for commits; looking for them four times a second instead")
            await withTaskGroup(of: Void.self) { group in
                group.addTask { [self] in
                    var looks = 0
                    while (try? await Task.sleep(for: .milliseconds(250))) != nil {
                        looks += 1
                        refresh()
                        if looks % 60 == 0, subscriberCount > 0 { broadcast(.heartbeat) }
                    }
                }
                try? await gracefulShutdown()
                group.cancelAll()
            }
            for target in lock.withLock({ Array(subscribers.values) }) { target.finish() }
            return
        }
        let thread = Thread { [self] in
            while true {
                // `refresh()` confirms a commit (and tells everyone) as it looks.
                switch commits.waitForCommit(timeout: subscriberCount > 0 ? heartbeat : nil, confirmed: { refresh() }) {
                case .written: continue
                case .timedOut: broadcast(.heartbeat)
                case .poked: continue
                case .stopped: return
                }
            }
        }
        thread.name = "grove.change-monitor"
        thread.start()
        defer {
            commits.stop()
            for target in lock.withLock({ Array(subscribers.values) }) { target.finish() }
        }
        try? await gracefulShutdown()
    }

    /// A signal given whenever data changes (any process), for a service that sleeps until the next
    /// thing it must do or a change, whichever comes first (`WakeSignal.wait(upTo:on:)`). `quiet`
    /// folds a burst of commits into one wake (see `WakeSignal`).
    public func changes(quiet: Duration = .zero) -> WakeSignal {
        let signal = WakeSignal(quiet: quiet)
        lock.withLock { changeSignals.append(signal) }
        return signal
    }
}
