import Foundation
import GroveCore
import GroveStore
import Logging
import ServiceLifecycle

/// Fires the daily, weekly and monthly intention reminders while the server runs: a desktop
/// notification where `notify-send` exists, and an event that open pages turn into a browser
/// notification.
///
/// The clock is injected (tests use one whose sleeps advance the store's test clock); wall-clock instants come from the
/// store's environment. It sleeps at most a minute at a time so that changed settings, a changed
/// zone or a suspended machine are picked up.
public final class ReminderService<C: Clock>: Service, @unchecked Sendable where C.Duration == Duration {
    private let database: AppDatabase
    private let clock: C
    private let onFire: @Sendable (ReminderKind, Date) -> Void
    private let logger = Logger(label: "grove.reminders")
    /// The longest single sleep: settings changed elsewhere are picked up within it.
    private let maxSleep: Duration
    /// Wakes it when settings change anywhere, so that it need not look every minute.
    private let changes: WakeSignal?

    public init(
        database: AppDatabase, clock: C, maxSleep: Duration = .seconds(60), changes: WakeSignal? = nil,
        onFire: @escaping @Sendable (ReminderKind, Date) -> Void
    ) {
        self.changes = changes
        self.database = database
        self.clock = clock
        self.maxSleep = maxSleep
        self.onFire = onFire
    }

    public func run() async throws {
        // A sleep of up to a minute must not hold the server's shutdown.
        try? await cancelWhenGracefulShutdown { [self] in try await loop() }
    }

    private func loop() async throws {
        // Only reminders due after start fire: starting the server late does not replay the day.
        var after = database.environment.now()
        while !Task.isCancelled {
            do {
                after = try await tick(after: after)
            } catch is CancellationError {
                return
            } catch {
                logger.warning("Reminder check failed", metadata: ["error": "\(error)"])
                try await clock.sleep(for: maxSleep)
            }
        }
    }

    /// Fires whatever fell due between `after` and now, then sleeps until the next one (or a minute).
    /// Returns the instant up to which reminders have been handled.
    func tick(after: Date) async throws -> Date {
        let (settings, calendar) = try await database.run { db in
            (try db.intentions.preferences().notificationSettings, try db.calendar())
        }
        let now = database.environment.now()
        for (kind, at) in ReminderSchedule.upcoming(settings: settings, after: after, calendar: calendar) where at <= now {
            logger.info("Reminder", metadata: ["kind": "\(kind.rawValue)"])
            onFire(kind, at)
        }
        let next = ReminderSchedule.upcoming(settings: settings, after: now, calendar: calendar).first?.at
        let wait = next.map { max(0, $0.timeIntervalSince(now)) } ?? 60
        let sleep = min(maxSleep, .milliseconds(Int64(min(wait, 86_400) * 1000)))
        if let changes { try await changes.wait(upTo: sleep, on: clock) } else { try await clock.sleep(for: sleep) }
        return now
    }
}
