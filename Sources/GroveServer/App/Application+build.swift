import Foundation
import GroveCore
import GroveHTTP
import GroveRemote
import GroveStore
import GroveSystem
import Hummingbird
import HummingbirdCore
import Logging
import Mustache
import NIOCore
import ServiceLifecycle

/// Everything `buildApplication` wires together; tests reach in through it.
public struct GroveServerParts {
    public let router: Router<GroveRequestContext>
    public let routes: RouteTable
    public let monitor: ChangeMonitor
    /// The GET answers kept in memory (`ResponseCacheMiddleware`).
    let responses: ResponseStore
    /// Signalled after every answer: memory freed by a large one goes back to the system soon after.
    let answered: WakeSignal
    /// Web Push to the browsers subscribed in Settings (a service of the application).
    let push: WebPushService
}

/// The router with every API route and web page, without the background services.
public func buildRouter(
    database: AppDatabase, configuration: ServerConfiguration, monitor: ChangeMonitor, logger: Logger = Logger(label: "grove.server")
) async throws -> GroveServerParts {
    // HEAD on every GET route, answered by the GET's handler without its body.
    let router = Router(context: GroveRequestContext.self, options: .autoGenerateHeadEndpoints)
    let templates = try await WebTemplates.load()
    let answered = WakeSignal()
    router.add(middleware: RequestLogMiddleware(logger: logger))
    router.add(middleware: HeadBodyMiddleware())
    router.add(middleware: CompressionMiddleware())
    router.add(middleware: AnsweredMiddleware(signal: answered))
    router.add(middleware: SecurityHeadersMiddleware())
    router.add(middleware: ProblemMiddleware(templates: templates))
    router.add(middleware: OriginMiddleware(configuration: configuration))
    let sessions = WebSessions(database: database, monitor: monitor)
    router.add(middleware: AuthMiddleware(configuration: configuration, sessions: sessions))
    // Route groups run their middleware after the router's, so after the login check: a kept answer
    // is never shown to whoever could not see it.
    let responses = ResponseStore()
    // Every commit through this store tells the live layer, whichever route or service made it.
    database.onCommit { [monitor] in monitor.invalidate() }
    let table = RouteTable()
    // VAPID's contact: the Grove's own public address when it has one (Apple's push service wants one).
    let push = WebPushService(
        database: database, subject: configuration.publicOrigins.first.map { "\($0)" } ?? "mailto:grove@localhost",
        deadline: configuration.pushDeadline)
    let api = APIRouter(
        groups: RouteGroups(under: router.group("api/v1"), monitor: monitor, database: database, responses: responses), table: table)
    FocusController(database: database, monitor: monitor).addRoutes(to: api)
    TimersController(database: database).addRoutes(to: api)
    PauseController(database: database, gateKey: configuration.gateKey).addRoutes(to: api)
    let model = configuration.assistant.map {
        ModelAssistant($0, client: configuration.assistantFetch.client, timeout: configuration.assistantFetch.timeout)
    }
    IntentionsController(database: database, assistant: Assistant(model: model)).addRoutes(to: api)
    DataController(database: database, monitor: monitor).addRoutes(to: api)
    ReviewController(database: database).addRoutes(to: api)
    SetupController(database: database).addRoutes(to: api)
    SyncController(database: database).addRoutes(to: api)
    ContentSourcesController(database: database, refresher: ContentRefresher(database: database, bounds: configuration.contentFetch))
        .addRoutes(to: api)
    PushController(database: database, push: push).addRoutes(to: api)
    let pages = RouteGroups(under: router.group(), monitor: monitor, database: database, responses: responses)
    WebController(database: database, templates: templates, configuration: configuration).addRoutes(to: pages)
    LoginController(database: database, templates: templates, configuration: configuration).addRoutes(to: pages)
    // Anything else under /api is a JSON 404, not an HTML page.
    router.group("api").get("**") { _, _ -> Response in throw APIError.notFound("No such API route") }
    return GroveServerParts(router: router, routes: table, monitor: monitor, responses: responses, answered: answered, push: push)
}

/// The whole server: router, change monitor and reminder scheduler (hummingbird-examples style:
/// tests run what this returns in-process).
public func buildApplication(
    database: AppDatabase, configuration: ServerConfiguration, logger: Logger = Logger(label: "grove.server"),
    onReminder: (@Sendable (ReminderKind) -> Void)? = nil, services extra: [any Service] = [],
    onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
) async throws -> some ApplicationProtocol {
    let monitor = ChangeMonitor(path: database.path)
    let parts = try await buildRouter(database: database, configuration: configuration, monitor: monitor, logger: logger)
    // A client writing as fast as it can wakes each service once per this, not once per commit: none
    // of them has anything due within it (their instants are seconds to days away).
    let serviceQuiet = Duration.milliseconds(50)
    let notices = ServerNotices(
        monitor: monitor, notifier: DesktopNotifier(), push: parts.push, hold: configuration.notificationHold, onReminder: onReminder)
    // The services sleep until their next instant or a commit (from any process), never on a poll:
    // their longest sleep only bounds a wall clock that jumped meanwhile.
    let reminders = ReminderService(
        database: database, clock: ContinuousClock(), maxSleep: .seconds(600), changes: monitor.changes(quiet: serviceQuiet)
    ) {
        kind, _ in notices.reminder(kind)
    }
    // Trees and breaks are announced here only while the server can ring; otherwise an open page does.
    let alarms = TimerAlarmService(
        database: database, clock: ContinuousClock(), maxSleep: .seconds(600), changes: monitor.changes(quiet: serviceQuiet),
        onDone: notices.timerDone, onFocusDone: notices.treePlanted, onBreakOver: notices.breakOver, rings: notices.rings)
    let maintenance = MaintenanceService(
        database: database, changes: monitor.changes(quiet: serviceQuiet), answered: parts.answered, hold: configuration.notificationHold)
    let content = ContentRefreshService(
        refresher: ContentRefresher(database: database, bounds: configuration.contentFetch), clock: ContinuousClock())
    // Bounded: a client too slow to send its request is cut off (`RequestDeadlineHandler`), an idle
    // connection closes, and connections beyond the cap wait their turn.
    let server = HTTPServerBuilder.http1(
        configuration: .init(
            additionalChannelHandlers: [RequestDeadlineHandler()], idleTimeout: .milliseconds(Int64(configuration.idleTimeout * 1000))),
        tls: configuration.tls)
    return Application(
        router: parts.router,
        server: server,
        configuration: .init(
            address: .hostname(configuration.host, port: configuration.port), serverName: "Grove",
            availableConnectionsDelegate: MaximumAvailableConnections(configuration.maxConnections)),
        services: [monitor, reminders, alarms, maintenance, content, parts.push] + extra,
        onServerRunning: onServerRunning,
        logger: logger)
}

/// Closes abandoned pauses (a page closed mid-pause ends as `timeout`), prunes Pause data past 30
/// days, and completes a focus session that fell due, so that open pages hear about it.
///
/// It sleeps until the store next needs it (`nextSettleInstant`: a session's end, a pause's grace, a
/// day's end) or a commit from any process (which may start one), never on a poll, so an idle server
/// stays asleep. After each wake it hands freed memory back to the system.
final class MaintenanceService: Service, @unchecked Sendable {
    let database: AppDatabase
    let changes: WakeSignal?
    let answered: WakeSignal?
    /// Bounds one sleep against a wall clock that jumped meanwhile (suspend, a clock set by hand).
    let maxSleep: Duration
    /// Holds the desktop's notifications while a session grows (however it was started), and gives
    /// them back when none does — also a hold left by a process that died.
    let hold: NotificationHold?

    init(
        database: AppDatabase, changes: WakeSignal?, answered: WakeSignal? = nil, maxSleep: Duration = .seconds(600),
        hold: NotificationHold? = nil
    ) {
        self.database = database
        self.changes = changes
        self.answered = answered
        self.maxSleep = maxSleep
        self.hold = hold
    }

    func run() async throws {
        await cancelWhenGracefulShutdown { [self] in
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await self.loop() }
                group.addTask { await self.trimAfterAnswers() }
            }
        }
    }

    /// A second after a burst of answers, hands what they freed back to the system (an export or a
    /// page of 1,000 sessions leaves megabytes in the allocator's arenas). Asleep while nobody asks.
    private func trimAfterAnswers() async {
        guard let answered else { return }
        let clock = ContinuousClock()
        while !Task.isCancelled {
            await answered.wait()
            do { try await clock.sleep(for: .seconds(1)) } catch { return }
            MemoryTrim.releaseFreePages()
        }
    }

    private func loop() async {
        let clock = ContinuousClock()
        while !Task.isCancelled {
            var wait = Duration.seconds(1)
            do {
                // What these settle is committed, and commits reach open pages by themselves.
                let next = try await database.run { [hold] db -> Date in
                    try db.pause.settle()
                    try db.focus.settle()
                    // On the store's thread: the daemons' commands block until they answer.
                    // A release costs a locked read of the hold's record: asked only when one is held
                    // (one `access(2)`), not on every wake a write makes.
                    if let hold {
                        if try db.focus.current()?.state == .active { hold.engage() } else if hold.isHeld { hold.release() }
                    }
                    return try db.nextSettleInstant()
                }
                let seconds = next.timeIntervalSince(database.environment.now())
                // A few milliseconds past the instant, so that what falls due then has fallen due; an
                // instant already past that settling did not clear waits a second (never a busy loop).
                wait = seconds > 0 ? min(maxSleep, .milliseconds(Int64(min(seconds + 0.005, 86_400) * 1000))) : .seconds(1)
            } catch {
                Logger(label: "grove.maintenance").warning("Maintenance failed", metadata: ["error": "\(error)"])
            }
            MemoryTrim.releaseFreePages()
            do {
                if let changes { try await changes.wait(upTo: wait, on: clock) } else { try await clock.sleep(for: wait) }
            } catch {
                return
            }
        }
    }
}

/// Hands memory the allocator keeps after large answers (an export, a page of 1,000 sessions) back to
/// the system: glibc keeps freed blocks in per-thread arenas, and a server's resident size would
/// otherwise stay at its peak. After each maintenance wake and each large answer, a fraction of a millisecond when there is nothing to give.
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
