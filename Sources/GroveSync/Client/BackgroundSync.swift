import Foundation
import GroveStore
import Logging
import ServiceLifecycle

/// `grove serve --sync`: keeps this device in step while the server runs. It syncs shortly after any
/// local write (whichever process made it: the outbox is in the shared store), at once when the sync
/// server pokes, and every minute otherwise; it backs off, with jitter, while the server is unreachable.
///
/// Nothing here polls: a thread of its own sleeps until the kernel says the store file was written
/// (`CommitWatcher`), and a sync round runs with the store's threads preferred (`AppDatabase.runAsync`),
/// so its blocking SQLite calls never hold Swift's cooperative pool.
public final class BackgroundSync<C: Clock>: Service, @unchecked Sendable where C.Duration == Duration {
    let database: AppDatabase
    let makeEngine: @Sendable () throws -> SyncEngine
    let makeTransport: @Sendable () throws -> HTTPSyncTransport
    let logger: Logger
    /// How long a quiet store waits before a pull the server did not poke about.
    let pullEvery: Duration
    let clock: C
    /// A number in 0..<1 for each back-off (injected so that tests see fixed waits).
    let jitter: @Sendable () -> Double
    let (wakeups, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))

    public init(
        database: AppDatabase, makeTransport: @escaping @Sendable () throws -> HTTPSyncTransport,
        makeEngine: @escaping @Sendable () throws -> SyncEngine, pullEvery: Duration = .seconds(60), clock: C,
        jitter: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }, logger: Logger = Logger(label: "grove.sync")
    ) {
        self.database = database
        self.makeTransport = makeTransport
        self.makeEngine = makeEngine
        self.pullEvery = pullEvery
        self.clock = clock
        self.jitter = jitter
        self.logger = logger
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown { [self] in
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await self.listen() }
                group.addTask { await self.watchOutbox() }
                group.addTask { await self.syncLoop() }
                await group.waitForAll()
            }
        }
    }

    /// How long to wait after `failures` failures in a row: 1, 2, 4 … 60 s, each between half and all
    /// of it (full jitter on the upper half), so that devices cut off together do not return together.
    func backOff(after failures: Int, cap: Int = 60) -> Duration {
        let ceiling = Double(min(cap, 1 << min(max(failures, 1) - 1, 6)))
        return .milliseconds(Int64(ceiling * (0.5 + 0.5 * jitter()) * 1000))
    }

    /// Syncs on every wake-up (coalesced), at most one at a time.
    private func syncLoop() async {
        var failures = 0
        var engine: SyncEngine?
        wake.yield()
        for await _ in wakeups {
            if Task.isCancelled { return }
            do {
                if engine == nil { engine = try makeEngine() }
                guard let current = engine else { continue }
                let (summary, synced) = try await database.runAsync { () -> (SyncSummary, SyncEngine) in
                    var running = current
                    return (try await running.sync(), running)
                }
                engine = synced
                failures = 0
                if summary.pushed + summary.applied > 0 {
                    logger.info("Synced", metadata: ["pushed": "\(summary.pushed)", "applied": "\(summary.applied)"])
                }
            } catch {
                failures += 1
                engine = nil
                logger.warning("Sync failed", metadata: ["error": "\(error)"])
                do { try await clock.sleep(for: backOff(after: failures)) } catch { return }
                wake.yield()
            }
        }
    }

    /// Wakes the loop when the outbox holds changes (a write by this server, the CLI, an import), and
    /// after `pullEvery` of quiet for a pull the server did not poke about.
    private func watchOutbox() async {
        defer { wake.finish() }
        guard let path = database.path, let commits = try? CommitWatcher(path: path) else {
            // No kernel watch (a store without a file, or no inotify instance left): the outbox is
            // looked at every second instead, and a pull made every `pullEvery`.
            var waited = Duration.zero
            while (try? await clock.sleep(for: .seconds(1))) != nil {
                waited += .seconds(1)
                let pending = (try? await database.run { try $0.sync.pendingCount() }) ?? 0
                if pending > 0 || waited >= pullEvery {
                    waited = .zero
                    wake.yield()
                }
            }
            return
        }
        let thread = Thread { [self] in
            while true {
                switch commits.waitForCommit(timeout: pullEvery, confirmed: { ((try? database.sync.pendingCount()) ?? 0) > 0 }) {
                case .written, .timedOut: wake.yield()
                case .poked: continue
                case .stopped: return
                }
            }
        }
        thread.name = "grove.sync.outbox"
        thread.start()
        await withTaskCancellationHandler {
            await WakeSignal().wait()
        } onCancel: {
            commits.stop()
        }
    }

    /// Listens to the sync server's pokes, reconnecting with back-off.
    private func listen() async {
        var failures = 0
        while !Task.isCancelled {
            do {
                let pokes = try await makeTransport().pokes()
                failures = 0
                for try await head in pokes {
                    let cursor = (try? await database.run { try $0.sync.device()?.cursor ?? 0 }) ?? 0
                    if head > cursor { wake.yield() }
                }
            } catch {
                failures += 1
                logger.debug("Event stream closed", metadata: ["error": "\(error)"])
            }
            do { try await clock.sleep(for: backOff(after: failures + 1, cap: 30)) } catch { return }
            // After a reconnect, whatever was missed is pulled.
            wake.yield()
        }
    }
}
