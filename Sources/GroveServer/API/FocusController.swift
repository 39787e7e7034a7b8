import Foundation
import GroveCore
import GroveStore
import Hummingbird

/// `/api/v1/focus/…`
struct FocusController {
    let database: AppDatabase
    let monitor: ChangeMonitor
    /// `GET /focus/current`'s session and anchor between commits.
    let currentMemo = CurrentFocusMemo()

    struct StartInput: Decodable {
        var plannedDuration: TimeInterval?
        var openEnded: Bool?
        var tags: [String]?
        /// When it was started, if earlier (a start queued offline).
        var startedAt: Date?
    }
    struct TagsInput: Decodable { var tags: [String] }
    struct LogInput: Decodable {
        struct Pause: Decodable { var start: Date; var end: Date }
        var start: Date
        var end: Date
        var pauses: [Pause]?
        var abandoned: Bool?
        var plannedDuration: TimeInterval?
        var timeZoneIdentifier: String?
        var tags: [String]?
    }

    func addRoutes(to api: APIRouter) {
        // Its own memo (`CurrentFocusMemo`), on the event loop.
        api.get("focus/current", cache: nil, onEventLoop: true, use: current)
        api.post("focus/start", use: start)
        api.post("focus/pause", use: pause)
        api.post("focus/resume", use: resume)
        api.post("focus/abandon", use: abandon)
        api.post("focus/stop", use: stop)
        api.post("focus/break/skip", use: skipBreak)
        api.post("focus/log", use: log)
        api.get("focus/sessions", cache: .data, use: sessions)
        api.get("focus/sessions/:id", cache: .second, use: session)
        api.delete("focus/sessions/:id", use: deleteSession)
        api.put("focus/sessions/:id/tags", use: retag)
        api.post("focus/sessions/:id/notice", use: claimNotice)
        api.post("focus/sessions/:id/break-notice", use: claimBreakNotice)
        api.get("focus/tags", cache: .data, use: tags)
        api.get("focus/window", cache: .day, use: window)
        api.get("focus/stats", cache: .day, use: stats)
        api.get("focus/forest", cache: .day, use: forest)
        api.get("focus/daily", cache: .day, use: daily)
        api.get("focus/preferences", cache: .data, use: preferences)
        api.put("focus/preferences", use: updatePreferences)
        api.patch("focus/preferences", use: changePreferences)
        api.get("focus/break", cache: .day, use: nextBreak)
    }

    // MARK: The running session

    /// `POST /focus/start` (`plannedDuration` in seconds, default from the preferences; or `openEnded`:
    /// it counts up until `POST /focus/stop`).
    @Sendable func start(_ request: Request, context: GroveRequestContext) async throws -> JSON<FocusStatusReport> {
        let input = try await request.decodeIfPresent(StartInput.self, context: context)
        let session = try database.focus.start(
            plannedDuration: input?.plannedDuration, openEnded: input?.openEnded ?? false, tags: input?.tags ?? [],
            at: input?.startedAt)
        return JSON(FocusStatusReport(session, now: try database.focus.now(for: session)), status: .created)
    }

    /// `POST /focus/pause`
    @Sendable func pause(_ request: Request, context: GroveRequestContext) async throws -> JSON<FocusStatusReport> {
        try changed(database.focus.pause(at: try await request.actionInstant(context: context)))
    }

    /// `POST /focus/resume`
    @Sendable func resume(_ request: Request, context: GroveRequestContext) async throws -> JSON<FocusStatusReport> {
        try changed(database.focus.resume(at: try await request.actionInstant(context: context)))
    }

    /// `POST /focus/abandon`: no tree.
    @Sendable func abandon(_ request: Request, context: GroveRequestContext) async throws -> JSON<FocusStatusReport> {
        try changed(database.focus.abandon(at: try await request.actionInstant(context: context)))
    }

    /// `POST /focus/stop`: the open-ended session completes with the time spent, and plants its tree.
    @Sendable func stop(_ request: Request, context: GroveRequestContext) async throws -> JSON<FocusStatusReport> {
        try changed(database.focus.stop(at: try await request.actionInstant(context: context)))
    }

    /// `POST /focus/break/skip`: the break after the last tree ends now.
    @Sendable func skipBreak(_ request: Request, context: GroveRequestContext) throws -> JSON<FocusBreak> {
        JSON(try database.focus.skipBreak())
    }

    // MARK: Sessions

    /// `POST /focus/log`: a session that happened elsewhere.
    @Sendable func log(_ request: Request, context: GroveRequestContext) async throws -> JSON<FocusSession> {
        let input = try await request.decode(as: LogInput.self, context: context)
        let zone = try input.timeZoneIdentifier.map { try ZonedCalendar(validating: $0).timeZone }
        let session = try database.focus.log(
            start: input.start, end: input.end, pauses: (input.pauses ?? []).map { .init(start: $0.start, end: $0.end) },
            abandoned: input.abandoned ?? false, plannedDuration: input.plannedDuration, timeZone: zone, tags: input.tags ?? [])
        return JSON(session, status: .created)
    }

    /// `GET /focus/sessions?state=&limit=&after=`: newest first, one page; its `Link` names the next
    /// by cursor (`offset=` still reads, at O(offset)).
    @Sendable func sessions(_ request: Request, context: GroveRequestContext) throws -> Page<FocusSession> {
        let (limit, offset, after) = try Self.position(request)
        // The core's vocabulary, read as every face reads it (any case).
        switch try request.query("state", SessionState.choosing) {
        case nil:
            return Self.byStart(try database.focus.sessions(limit: limit, offset: offset, after: after), limit: limit, offset: offset)
        case .completed:
            return try forestPage(limit: limit, offset: offset, after: after)
        case let state?:
            return Self.byStart(
                try database.focus.sessions(state: state, limit: limit, offset: offset, after: after), limit: limit, offset: offset)
        }
    }

    /// A page of a list by start: the next page starts after its last session's start.
    static func byStart(_ items: [FocusSession], limit: Int, offset: Int) -> Page<FocusSession> {
        Page(items: items, limit: limit, offset: offset, next: items.last.map { SessionCursor(time: $0.startTime, id: $0.id).token })
    }

    /// A page's size and where it starts: after a cursor, or (the older way) at an offset; not both.
    static func position(_ request: Request) throws -> (limit: Int, offset: Int, after: SessionCursor?) {
        let (limit, offset) = try request.page()
        // Bounded: a deeper page goes by the cursor (`FocusRoom.maxOffset`).
        guard offset <= FocusRoom.maxOffset else {
            throw APIError.badRequest(
                field: "offset",
                detail:
                    "offset must be from 0 to \(FocusRoom.maxOffset) (got \(offset)): page further with the cursor (after=, the Link header)"
            )
        }
        let after = try request.query("after") { try SessionCursor(validating: $0, field: $1) }
        if after != nil, offset != 0 {
            throw APIError.badRequest(field: "after", detail: "after and offset cannot be combined: follow the next link")
        }
        return (limit, offset, after)
    }

    /// Completed sessions by end, newest first, the next page named by the last one's end.
    func forestPage(limit: Int, offset: Int, after: SessionCursor?) throws -> Page<FocusSession> {
        let items = try database.focus.completed(limit: limit, offset: offset, after: after)
        return Page(
            items: items, limit: limit, offset: offset,
            next: items.last.map { SessionCursor(time: $0.endTime ?? $0.startTime, id: $0.id).token })
    }

    /// `GET /focus/sessions/:id`
    @Sendable func session(_ request: Request, context: GroveRequestContext) throws -> JSON<FocusSession> {
        guard let session = try database.focus.session(id: try context.uuid("id")) else {
            throw NotFoundError("focus session", try context.string("id"))
        }
        return JSON(session)
    }

    struct NoticeClaim: Encodable, Sendable { var claimed: Bool }

    /// `POST /focus/sessions/:id/notice`: a page that can show a notification asks for the right to;
    /// `claimed` is true once per completed session, for whoever asks first (a page, the server, a
    /// terminal, a detached waiter), so nobody is told twice.
    @Sendable func claimNotice(_ request: Request, context: GroveRequestContext) throws -> JSON<NoticeClaim> {
        let id = try context.uuid("id")
        guard try database.focus.session(id: id) != nil else { throw NotFoundError("focus session", try context.string("id")) }
        return JSON(NoticeClaim(claimed: try database.focus.claimNotice(sessionId: id)))
    }

    /// `POST /focus/sessions/:id/break-notice`: whether this caller says "break over" for the break after
    /// the session's tree (true once, when it ran its course; a skipped break says nothing).
    @Sendable func claimBreakNotice(_ request: Request, context: GroveRequestContext) throws -> JSON<NoticeClaim> {
        let id = try context.uuid("id")
        guard try database.focus.session(id: id) != nil else { throw NotFoundError("focus session", try context.string("id")) }
        return JSON(NoticeClaim(claimed: try database.focus.claimBreakOverNotice(sessionId: id)))
    }

    /// `DELETE /focus/sessions/:id` (its day's totals follow).
    @Sendable func deleteSession(_ request: Request, context: GroveRequestContext) throws -> NoContent {
        try database.focus.delete(id: try context.uuid("id"))
        return NoContent()
    }

    /// `PUT /focus/sessions/:id/tags` `{"tags": ["essay"]}`: replaces the session's tags (`[]` removes them).
    @Sendable func retag(_ request: Request, context: GroveRequestContext) async throws -> JSON<FocusSession> {
        let id = try context.uuid("id")
        let input = try await request.decode(as: TagsInput.self, context: context)
        return JSON(try database.focus.retag(id: id, tags: input.tags))
    }

    /// `GET /focus/tags?limit=`: the tags used, most recent first, with their totals.
    @Sendable func tags(_ request: Request, context: GroveRequestContext) throws -> JSON<[FocusTagSummary]> {
        JSON(try database.focus.tags(limit: try request.query("limit", in: 1...FocusRoom.maxPageSize) ?? 200))
    }

    /// `GET /focus/window?days=&before=&tag=`: the forest a window of days at a time, from the per-day
    /// totals, each day with its trees; `older` is the `before` of the next window.
    @Sendable func window(_ request: Request, context: GroveRequestContext) throws -> JSON<ForestWindow> {
        let days = try request.query("days", in: ForestWindow.dayRange) ?? ForestWindow.defaultDays
        return JSON(
            try database.focus.forest(
                days: days, before: try request.query("before", LocalDay.init(validating:field:)), tag: try request.tagFilter()))
    }

    /// `GET /focus/forest?limit=&after=`: completed sessions, newest first, paged by cursor.
    @Sendable func forest(_ request: Request, context: GroveRequestContext) throws -> Page<FocusSession> {
        let (limit, offset, after) = try Self.position(request)
        return try forestPage(limit: limit, offset: offset, after: after)
    }

    // MARK: Stats and preferences

    /// `GET /focus/daily?from=&to=&tag=`: per-day totals, the last year by default.
    @Sendable func daily(_ request: Request, context: GroveRequestContext) throws -> JSON<[DailyFocusTotals]> {
        let calendar = try database.calendar()
        let today = calendar.localDay(of: database.environment.now())
        let from = try request.query("from", LocalDay.init(validating:field:)) ?? today.adding(days: -364)
        let to = try request.query("to", LocalDay.init(validating:field:)) ?? today
        guard from <= to else { throw APIError.badRequest(field: "from", detail: "from must not be after to") }
        return JSON(try database.focus.dailyTotals(from: from, to: to, tag: try request.tagFilter()))
    }

    /// `GET /focus/preferences`
    @Sendable func preferences(_ request: Request, context: GroveRequestContext) throws -> JSON<FocusPreferences> {
        JSON(try database.focus.preferences())
    }

    /// `PUT /focus/preferences`
    @Sendable func updatePreferences(_ request: Request, context: GroveRequestContext) async throws -> JSON<FocusPreferences> {
        let preferences = try await request.decode(as: FocusPreferences.self, context: context)
        return JSON(try database.focus.updatePreferences(preferences))
    }

    /// Some focus preferences; the fields left out keep their stored values.
    struct PreferencesChange: Decodable {
        var focusDuration: TimeInterval?
        var shortBreakDuration: TimeInterval?
        var longBreakDuration: TimeInterval?
        var longBreakInterval: Int?
    }

    /// `PATCH /focus/preferences`: changes only the fields given, in one transaction, so that two pages
    /// (or the CLI) changing different fields never undo each other.
    @Sendable func changePreferences(_ request: Request, context: GroveRequestContext) async throws -> JSON<FocusPreferences> {
        let input = try await request.decode(as: PreferencesChange.self, context: context)
        return JSON(
            try database.focus.changePreferences { preferences in
                if let value = input.focusDuration { preferences.focusDuration = value }
                if let value = input.shortBreakDuration { preferences.shortBreakDuration = value }
                if let value = input.longBreakDuration { preferences.longBreakDuration = value }
                if let value = input.longBreakInterval { preferences.longBreakInterval = value }
            })
    }

    /// `GET /focus/break`: the break the Pomodoro cycle calls for now.
    @Sendable func nextBreak(_ request: Request, context: GroveRequestContext) throws -> JSON<PomodoroBreak> {
        JSON(try database.focus.nextBreak())
    }

    private func changed(_ session: FocusSession) throws -> JSON<FocusStatusReport> {
        return JSON(FocusStatusReport(session, now: try database.focus.now(for: session)))
    }

    /// The running session and its clock anchor: cached until data changes or it falls due; the live
    /// figures (`remaining`, `progress`) are computed per request without touching the database.
    ///
    /// The route answers from memory on the event loop (registered `onEventLoop`); only a miss goes
    /// to the store's threads.
    @Sendable func current(_ request: Request, context: GroveRequestContext) async throws -> RawJSON {
        let now = database.environment.now()
        let cached = try await currentMemo.value(generation: monitor.freshGeneration, now: now, database: database) { database in
            guard let session = try database.focus.current() else {
                // The break after the last tree, until it ends (then the answer is `{}`).
                return try database.focus.runningBreak().map { (FocusStatusJSON(break: $0.pause, anchor: $0.anchor), $0.ends) } ?? (
                    nil, nil
                )
            }
            return (try FocusStatusJSON(session, anchor: try database.focus.clockAnchor(of: session)), session.dueAt)
        }
        guard let cached else { return RawJSON(data: FocusStatusJSON.none) }
        return RawJSON(data: cached.encoded(now: database.focus.now(since: cached.anchor)))
    }

    /// `GET /focus/stats?tag=`: ForestStats, for one tag's sessions when `tag` is given.
    @Sendable func stats(_ request: Request, context: GroveRequestContext) throws -> JSON<ForestStats> {
        JSON(try database.focus.stats(tag: try request.tagFilter()))
    }

}
