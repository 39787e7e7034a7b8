import Foundation
import GroveStore
import Logging
import ServiceLifecycle

/// `grove serve --sync`: keeps this device in step while the server runs. It syncs shortly after any
/// local write (whichever process made it: the outbox is in the shared store), at once when the sync
/// server pokes, and every minute otherwise; it backs off while the server is unreachable.
public final class BackgroundSync: Service, @unchecked Sendable {
    let database: AppDatabase
    let makeEngine: @Sendable () throws -> SyncEngine
    let makeTransport: @Sendable () throws -> HTTPSyncTransport
    let logger: Logger
    /// How often the outbox is looked at for local writes.
    let checkInterval: Duration
    let (wakeups, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))

    public init(database: AppDatabase, makeTransport: @escaping @Sendable () throws -> HTTPSyncTransport,
                makeEngine: @escaping @Sendable () throws -> SyncEngine, checkInterval: Duration = .milliseconds(200),
                logger: Logger = Logger(label: "grove.sync")) {
        self.database = database
        self.makeTransport = makeTransport
        self.makeEngine = makeEngine
        self.checkInterval = checkInterval
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

    /// Syncs on every wake-up (coalesced), at most one at a time.
    private func syncLoop() async {
        var failures = 0
        var engine: SyncEngine?
        wake.yield()
        for await _ in wakeups {
            if Task.isCancelled { return }
            do {
                if engine == nil { engine = try makeEngine() }
                guard var current = engine else { continue }
                let summary = try await current.sync()
                engine = current
                failures = 0
                if summary.pushed + summary.applied > 0 {
                    logger.info("Synced", metadata: ["pushed": "\(summary.pushed)", "applied": "\(summary.applied)"])
                }
            } catch {
                failures += 1
                engine = nil
                logger.warning("Sync failed", metadata: ["error": "\(error)"])
                // Back off: 1, 2, 4 … 60 s while the server is away.
                try? await Task.sleep(for: .seconds(min(60, 1 << min(failures - 1, 6))))
                wake.yield()
            }
        }
    }

    /// Wakes the loop when the outbox holds changes (a write by this server, the CLI, an import), and
    /// once a minute for a pull the server did not poke about.
    private func watchOutbox() async {
        var sincePull = ContinuousClock.now
        while !Task.isCancelled {
            try? await Task.sleep(for: checkInterval)
            let pending = (try? database.pendingMutationCount()) ?? 0
            if pending > 0 || ContinuousClock.now - sincePull > .seconds(60) {
                sincePull = ContinuousClock.now
                wake.yield()
            }
        }
        wake.finish()
    }

    /// Listens to the sync server's pokes, reconnecting with back-off.
    private func listen() async {
        var failures = 0
        while !Task.isCancelled {
            do {
                let pokes = try await makeTransport().pokes()
                failures = 0
                for try await head in pokes {
                    let cursor = (try? database.syncDevice()?.cursor) ?? 0
                    if head > cursor { wake.yield() }
                }
            } catch {
                failures += 1
                logger.debug("Event stream closed", metadata: ["error": "\(error)"])
            }
            try? await Task.sleep(for: .seconds(min(30, 1 << min(failures, 5))))
            // After a reconnect, whatever was missed is pulled.
            wake.yield()
        }
    }
}
