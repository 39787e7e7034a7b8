import Foundation
import GroveStore
import Logging
import ServiceLifecycle

/// Refreshes content packs in the background while `grove serve` runs: each source once its pack is a
/// day old (an hour after a failure). The clock is injected; the sources' ages come from the store's
/// environment, so tests move a test clock instead of waiting.
public final class ContentRefreshService<C: Clock>: Service, @unchecked Sendable where C.Duration == Duration {
    private let refresher: ContentRefresher
    private let clock: C
    private let interval: Duration

    /// `interval`: how often the sources' ages are looked at (a source added meanwhile waits at most this long).
    public init(refresher: ContentRefresher, clock: C, interval: Duration = .seconds(600)) {
        self.refresher = refresher
        self.clock = clock
        self.interval = interval
    }

    public func run() async throws {
        try? await cancelWhenGracefulShutdown { [self] in
            while !Task.isCancelled {
                do {
                    _ = try await refresher.refresh()
                } catch {
                    Logger(label: "grove.content").warning("Content refresh failed", metadata: ["error": "\(error)"])
                }
                try await clock.sleep(for: interval)
            }
        }
    }
}
