import Foundation
import GroveCore
import GroveStore
import GroveSystem
import Hummingbird
import Logging
import Mustache
import ServiceLifecycle

/// Everything `buildApplication` wires together; tests reach in through it.
public struct GroveServerParts {
    public let router: Router<GroveRequestContext>
    public let routes: RouteTable
    public let monitor: ChangeMonitor
    /// The GET answers kept in memory (`ResponseCacheMiddleware`).
    let responses: ResponseStore
}

/// The router with every API route and web page, without the background services.
public func buildRouter(database: AppDatabase, configuration: ServerConfiguration, monitor: ChangeMonitor) async throws -> GroveServerParts {
    let router = Router(context: GroveRequestContext.self)
    let templates = try await WebTemplates.load()
    router.add(middleware: SecurityHeadersMiddleware())
    router.add(middleware: ProblemMiddleware(templates: templates))
    router.add(middleware: OriginMiddleware(loopbackOnly: configuration.isLoopback))
    router.add(middleware: AuthMiddleware(token: configuration.requiresAuthentication ? configuration.token : nil))
    // After the login check (a kept page is never shown to whoever could not see it) and before the hop
    // to the store's threads (a kept answer needs no store).
    let responses = ResponseStore()
    router.add(middleware: ResponseCacheMiddleware(monitor: monitor, database: database, store: responses))
    router.add(middleware: StoreExecutorMiddleware())
    // Every commit through this store tells the live layer, whichever route or service made it.
    database.onCommit { [monitor] in monitor.invalidate() }
    let table = RouteTable()
    let api = APIRouter(group: router.group("api/v1"), table: table)
    let cache = ResponseCache()
    FocusController(database: database, monitor: monitor, cache: cache).addRoutes(to: api)
    TimersController(database: database).addRoutes(to: api)
    PauseController(database: database, monitor: monitor, cache: cache, gateKey: configuration.gateKey).addRoutes(to: api)
    IntentionsController(database: database, monitor: monitor, cache: cache, assistant: Assistant(configuration.assistant)).addRoutes(to: api)
    DataController(database: database, monitor: monitor).addRoutes(to: api)
    ReviewController(database: database).addRoutes(to: api)
    SetupController(database: database).addRoutes(to: api)
    ContentSourcesController(database: database, refresher: ContentRefresher(database: database)).addRoutes(to: api)
    WebController(database: database, templates: templates, configuration: configuration).addRoutes(to: router)
    // Anything else under /api is a JSON 404, not an HTML page.
    router.group("api").get("**") { _, _ -> Response in throw APIError.notFound("No such API route") }
    return GroveServerParts(router: router, routes: table, monitor: monitor, responses: responses)
}

/// The whole server: router, change monitor and reminder scheduler (hummingbird-examples style:
/// tests run what this returns in-process).
public func buildApplication(
    database: AppDatabase, configuration: ServerConfiguration, logger: Logger = Logger(label: "grove.server"),
    onReminder: (@Sendable (ReminderKind) -> Void)? = nil, services extra: [any Service] = []
) async throws -> some ApplicationProtocol {
    let monitor = ChangeMonitor(path: database.path)
    let parts = try await buildRouter(database: database, configuration: configuration, monitor: monitor)
    let notifier = DesktopNotifier()
    let reminders = ReminderService(database: database, clock: ContinuousClock()) { kind, _ in
        monitor.broadcast(.reminder(kind: kind, prompt: kind.prompt))
        notifier.send(title: "Grove", body: kind.prompt)
        onReminder?(kind)
    }
    let timerDone: @Sendable (TimerRunStatus) -> Void = { run in
        monitor.broadcast(.timerDone(timerId: run.timerId, name: run.name))
        notifier.send(title: "\(run.name) is done", body: "Your timer reached \(ClockText.format(run.duration, padHours: false)).")
    }
    // Focus sessions are announced here only where the server can ring; otherwise an open page does.
    var treePlanted: (@Sendable (FocusSession) -> Void)?
    if notifier.isAvailable {
        treePlanted = { _ in notifier.send(title: "Tree planted 🌳", body: "Focus session complete. Time for a break.") }
    }
    let alarms = TimerAlarmService(database: database, clock: ContinuousClock(), onDone: timerDone, onFocusDone: treePlanted)
    let maintenance = MaintenanceService(database: database)
    let content = ContentRefreshService(refresher: ContentRefresher(database: database), clock: ContinuousClock())
    return Application(
        router: parts.router,
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "Grove"),
        services: [monitor, reminders, alarms, maintenance, content] + extra,
        logger: logger)
}

/// Closes abandoned pauses (a page closed mid-pause ends as `timeout`), prunes Pause data past 30
/// days, and completes a focus session that fell due, so that open pages hear about it.
final class MaintenanceService: Service, @unchecked Sendable {
    let database: AppDatabase
    init(database: AppDatabase) {
        self.database = database
    }

    func run() async throws {
        await cancelWhenGracefulShutdown { [self] in await loop() }
    }

    private func loop() async {
        while !Task.isCancelled {
            do {
                // What these settle is committed, and commits reach open pages by themselves.
                try await database.run { db in
                    try db.settlePauseData()
                    try db.settleFocusSession()
                }
            } catch {
                Logger(label: "grove.maintenance").warning("Maintenance failed", metadata: ["error": "\(error)"])
            }
            trimCount += 1
            if trimCount % 2 == 0 { MemoryTrim.releaseFreePages() }
            try? await Task.sleep(for: .seconds(1))
        }
    }

    private var trimCount = 0
}

/// Hands memory the allocator keeps after large answers (an export, a page of 1,000 sessions) back to
/// the system: glibc keeps freed blocks in per-thread arenas, and a server's resident size would
/// otherwise stay at its peak. Every two seconds, a fraction of a millisecond when there is nothing to give.
enum MemoryTrim {
    static func releaseFreePages() {
        #if os(Linux)
        _ = glibcMallocTrim(0)
        #endif
    }
}

#if os(Linux)
/// glibc's `int malloc_trim(size_t pad)` (not in Swift's Glibc module).
@_silgen_name("malloc_trim") private func glibcMallocTrim(_ pad: Int) -> Int32
#endif
