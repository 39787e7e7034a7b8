import Foundation
import GroveCore
import GroveStore
import HTTPTypes
import Hummingbird

/// The server-rendered web app: one page per room, enhanced by a little JavaScript that talks to
/// the JSON API and listens for live changes.
struct WebController {
    let database: AppDatabase
    let templates: WebTemplates
    let configuration: ServerConfiguration

    /// A page route, with how long its answers are kept (pages that count down in seconds, say "today",
    /// or show reminder minutes): the route joins the group that keeps them so long.
    private func route(
        _ groups: RouteGroups, _ path: String, cache: ResponseCacheMiddleware.Freshness?,
        _ build: @escaping @Sendable (Request, GroveRequestContext) throws -> Response
    ) {
        groups.kept(cache).get(RouterPath(path)) { request, context in try build(request, context) }
    }

    func addRoutes(to groups: RouteGroups) {
        route(groups, "/", cache: .second) { _, _ in try page("dashboard", dashboard()) }
        route(groups, "focus", cache: .second) { _, _ in try page("focus", focus()) }
        route(groups, "forest", cache: .day) { request, _ in
            try page("forest", forest(before: request.query("before", LocalDay.init(validating:field:)), tag: tag(request)))
        }
        route(groups, "stats", cache: .day) { request, _ in try page("stats", stats(tag: tag(request))) }
        route(groups, "timers", cache: .second) { request, _ in
            try page(
                "timers",
                timers(
                    order: request.query("sort", AppDatabase.TimerOrder.init(validating:field:)) ?? .createdAt,
                    incompleteOnly: request.flag("incomplete")))
        }
        route(groups, "intentions", cache: .day) { request, _ in try page("intentions", intentions(query: request.queryString("q"))) }
        route(groups, "themes", cache: .day) { request, _ in
            try page("themes", themes(kind: request.query("kind", AppDatabase.ThemeKind.init(validating:field:))))
        }
        route(groups, "settings", cache: .minute) { _, _ in try page("settings", settings()) }
        route(groups, "pause", cache: .day) { _, _ in try page("pause-usage", pauseUsage()) }
        route(groups, "setup", cache: nil) { _, _ in try page("setup", setup()) }
        route(groups, "review", cache: .day) { request, _ in try page("review", review(week: request.queryString("week"))) }
        route(groups, "content", cache: .day) { request, _ in
            try page("content", content(category: request.query("category", MindfulnessContent.ContentCategory.init(validating:field:))))
        }
        route(groups, "pause/:appId", cache: nil) { request, context in
            try page("pause", gateway(try context.string("appId"), request: request))
        }
        groups.plain.get("static/:file") { request, context -> Response in
            let name = try context.string("file")
            guard let file = templates.staticFiles[name] else { throw APIError.notFound("No file \(name)") }
            // After five minutes a browser asks again, and a 304 answers without the bytes.
            return serve(file, request: request, cacheControl: "public, max-age=300")
        }
        // The service worker: at the root, so that its scope is the whole app; asked for afresh on
        // every visit (a new build must reach the browser at once). The offline page is what it shows
        // for a page never opened here.
        groups.plain.get("sw.js") { request, _ in serve(templates.serviceWorker, request: request, cacheControl: "no-cache") }
        groups.plain.get("offline") { _, _ in try page("offline", OfflinePage()) }
    }

    // MARK: Rendering

    /// A file of the web app, or 304 when the browser's copy is this one.
    func serve(_ file: StaticFile, request: Request, cacheControl: String) -> Response {
        let headers: HTTPFields = [
            .contentType: file.type, .cacheControl: cacheControl, .eTag: file.etag, .lastModified: file.lastModified,
        ]
        if file.isFresh(request.headers) { return Response(status: .notModified, headers: headers) }
        var buffer = ByteBuffer()
        buffer.writeBytes(file.data)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: buffer))
    }

    func page(_ name: String, _ model: some Encodable) throws -> Response {
        try templates.page(name, model)
    }

    /// Instants on the configured wall clock ("14:05", or with the day when not today), with the
    /// calendar read from the store once per page, not once per instant.
    func wallFormatter() throws -> (Date) -> String {
        let calendar = try database.calendar()
        let today = calendar.localDay(of: database.environment.now())
        return { calendar.wallText($0, today: today) }
    }

    // MARK: Pages

    /// The intentions in effect today as cards in their themes, day first (`current` is the first):
    /// the week's and the month's show under a day's, each labelled with its period.
    func intentionCards(elementID: String, rephrasable: Bool) throws -> [IntentionCardView] {
        let layers = try database.intentions.layers()
        guard !layers.isEmpty else { return [] }
        let calendar = try database.calendar()
        let preferredFont = try database.intentions.preferences().defaultFont
        return try layers.enumerated().map { index, intention in
            let chosen = try database.themes.chosen(for: intention)
            let theme = chosen ?? PresetThemes.serene
            return IntentionCardView(
                elementID: index == 0 ? elementID : "\(elementID)-\(intention.scope.rawValue)", id: intention.id.uuidString,
                text: intention.text,
                scope: intention.scope.displayName, date: intention.scope.periodLabel(containing: intention.date, calendar: calendar),
                background: theme.backgroundColor, color: theme.textColor, accent: theme.readableAccent, themed: chosen != nil,
                font: FontStack.resolve(intention: intention.customFont, theme: theme.fontName, preferred: preferredFont),
                quote: intention.quote, rephrasable: rephrasable, secondary: index > 0)
        }
    }

    func statsView(_ stats: ForestStats) -> StatsView {
        StatsView(
            totalTrees: stats.totalTrees, todaysTrees: stats.todaysTrees, todaysFocus: ForestStats.formatDuration(stats.todaysFocusTime),
            totalFocus: stats.formattedTotalFocusTime, totalSessions: stats.totalSessions, abandonedCount: stats.abandonedCount,
            completionRate: String(format: "%.0f", stats.completionRate), currentStreak: stats.currentStreak,
            longestStreak: stats.longestStreak,
            average: String(format: "%.1f", stats.averageSessionsPerDay), daysWithTrees: stats.daysWithTrees,
            totalHours: String(format: "%.1f", stats.totalFocusHours), todaysTreesWord: stats.todaysTrees == 1 ? "tree" : "trees",
            totalTreesWord: stats.totalTrees == 1 ? "tree" : "trees", streakWord: stats.currentStreak == 1 ? "day" : "days",
            daysWithTreesWord: stats.daysWithTrees == 1 ? "day" : "days")
    }

    /// Two weeks of planting at a time, from the per-day totals; "Older" continues before the last day shown.
    /// `?tag=` of a page: an empty one (the picker's "All sessions") is none.
    func tag(_ request: Request) -> String? {
        guard let raw = request.queryString("tag")?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else { return nil }
        return raw
    }

    /// The picker, with `tag` chosen; nil when no session carries a tag.
    func tagFilter(_ tag: String?) throws -> TagFilterView? {
        var tags = try database.focus.tags(limit: 200).map(\.tag).sorted { $0.lowercased() < $1.lowercased() }
        // Any spelling of a tag is that tag ("reading" chooses "Reading").
        let same = { (a: String, b: String) in FocusTags.folded(a) == FocusTags.folded(b) }
        if let tag, !tags.contains(where: { same($0, tag) }) { tags.insert(tag, at: 0) }
        return tags.isEmpty
            ? nil : TagFilterView(options: tags.map { name in .init(tag: name, selected: tag.map { same(name, $0) } ?? false) })
    }

}

extension SocialApp {
    /// The app as pages show it.
    var view: AppView {
        AppView(
            id: id, name: displayName, scheme: urlScheme, webURL: webURL ?? "", enabled: isEnabled,
            paths: gatedPaths.joined(separator: "\n"), hasPaths: !gatedPaths.isEmpty, block: blockSchedule?.description ?? "",
            hasBlock: blockSchedule != nil, strict: blockStrict,
            focusSummary: focusAllowed.isEmpty
                ? "waits behind the tree"
                : focusAllowed == [Self.everySession]
                    ? "allowed in every session" : "allowed with \(focusAllowed.joined(separator: ", "))",
            focusAlways: focusAllowed == [Self.everySession],
            focusTags: focusAllowed == [Self.everySession] ? "" : focusAllowed.joined(separator: "\n"))
    }
}
