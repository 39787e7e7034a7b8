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

    func addRoutes(to router: Router<GroveRequestContext>) {
        router.get("/") { _, _ in try page("dashboard", dashboard()) }
        router.get("focus") { _, _ in try page("focus", focus()) }
        router.get("forest") { request, _ in
            try page("forest", forest(before: request.query("before", LocalDay.init(validating:field:)), tag: tag(request)))
        }
        router.get("stats") { request, _ in try page("stats", stats(tag: tag(request))) }
        router.get("timers") { request, _ in
            try page(
                "timers",
                timers(
                    order: request.query("sort", AppDatabase.TimerOrder.init(validating:field:)) ?? .createdAt,
                    incompleteOnly: request.flag("incomplete")))
        }
        router.get("intentions") { request, _ in try page("intentions", intentions(query: request.queryString("q"))) }
        router.get("themes") { request, _ in
            try page("themes", themes(kind: request.query("kind", AppDatabase.ThemeKind.init(validating:field:))))
        }
        router.get("settings") { _, _ in try page("settings", settings()) }
        router.get("pause") { _, _ in try page("pause-usage", pauseUsage()) }
        router.get("setup") { _, _ in try page("setup", setup()) }
        router.get("review") { request, _ in try page("review", review(week: request.queryString("week"))) }
        router.get("content") { request, _ in
            try page("content", content(category: request.query("category", MindfulnessContent.ContentCategory.init(validating:field:))))
        }
        router.get("pause/:appId") { request, context in try page("pause", gateway(try context.string("appId"), request: request)) }
        router.get("login") { request, _ in
            try page("login", LoginPage(next: LoginRedirect.safe(request.queryString("next"))))
        }
        router.post("login") { request, context -> Response in
            var request = request
            let body = try await request.collectBody(upTo: 16 * 1024)
            let form = String(buffer: body).split(separator: "&").reduce(into: [String: String]()) { result, pair in
                let parts = pair.split(separator: "=", maxSplits: 1).map {
                    String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
                }
                if parts.count == 2 { result[parts[0]] = parts[1] }
            }
            let next = LoginRedirect.safe(form["next"])
            guard let token = configuration.token, let given = form["token"], AuthMiddleware.constantTimeEqual(given, token) else {
                return try html(templates.render("login", LoginPage(next: next, error: "That token is not right.")), status: .unauthorized)
            }
            return Response(
                status: .seeOther,
                headers: [
                    .location: next,
                    .setCookie: "\(AuthMiddleware.cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict; Max-Age=31536000",
                ])
        }
        router.get("static/:file") { _, context -> Response in
            let name = try context.string("file")
            guard let file = templates.staticFiles[name] else { throw APIError.notFound("No file \(name)") }
            var buffer = ByteBuffer()
            buffer.writeBytes(file.data)
            return Response(
                status: .ok, headers: [.contentType: file.type, .cacheControl: "public, max-age=300"], body: .init(byteBuffer: buffer))
        }
    }

    // MARK: Rendering

    private func page(_ name: String, _ model: some Encodable) throws -> Response {
        try html(templates.render(name, model))
    }

    private func html(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        var buffer = ByteBuffer()
        buffer.writeString(text)
        return Response(
            status: status, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"], body: .init(byteBuffer: buffer))
    }

    /// Instants on the configured wall clock ("14:05", or with the day when not today), with the
    /// calendar read from the store once per page, not once per instant.
    private func wallFormatter() throws -> (Date) -> String {
        let calendar = try database.calendar()
        let today = calendar.localDay(of: database.environment.now())
        return { calendar.wallText($0, today: today) }
    }

    // MARK: Pages

    /// The intentions in effect today as cards in their themes, day first (`current` is the first):
    /// the week's and the month's show under a day's, each labelled with its period.
    private func intentionCards(elementID: String, rephrasable: Bool) throws -> [IntentionCardView] {
        let layers = try database.intentionLayers()
        guard !layers.isEmpty else { return [] }
        let calendar = try database.calendar()
        let preferredFont = try database.userPreferences().defaultFont
        return try layers.enumerated().map { index, intention in
            let theme = try database.displayTheme(for: intention)
            return IntentionCardView(
                elementID: index == 0 ? elementID : "\(elementID)-\(intention.scope.rawValue)", id: intention.id.uuidString,
                text: intention.text,
                scope: intention.scope.displayName, date: intention.scope.periodLabel(containing: intention.date, calendar: calendar),
                background: theme.backgroundColor, color: theme.textColor, accent: theme.readableAccent,
                font: FontStack.resolve(intention: intention.customFont, theme: theme.fontName, preferred: preferredFont),
                quote: intention.quote, rephrasable: rephrasable, secondary: index > 0)
        }
    }

    private func statsView(_ stats: ForestStats) -> StatsView {
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

    /// The content library, one category or all; a category that does not exist is a 400 naming it.
    private func content(category: MindfulnessContent.ContentCategory?) throws -> ContentPage {
        let items = try database.contents(category: category).map { c in
            ContentPage.Item(
                id: c.id, text: c.text, author: c.author, type: c.type.rawValue, category: c.category.displayName, timesShown: c.timesShown,
                timesWord: c.timesShown == 1 ? "time" : "times", bundled: c.isBundled || c.source != nil,
                source: c.source.flatMap { URLComponents(string: $0)?.host })
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = try database.calendar().timeZone
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        let sources = try database.contentSources().map { s in
            ContentPage.Source(
                url: s.url, items: "\(s.itemCount) item\(s.itemCount == 1 ? "" : "s")", fetched: s.lastFetched.map(formatter.string(from:)),
                error: s.lastError)
        }
        return ContentPage(
            category: category?.rawValue,
            categories: MindfulnessContent.ContentCategory.allCases.map {
                CategoryView(id: $0.rawValue, name: $0.displayName, selected: $0 == category)
            }, items: items, sources: sources, hasSources: !sources.isEmpty)
    }

    /// The weekly review of `?week=` (an ISO week, a day, "this" or "last"); anything else is a 400 naming it.
    private func review(week: String?) throws -> ReviewPage {
        let calendar = try database.calendar()
        let today = calendar.localDay(of: database.environment.now())
        return ReviewPage(try APIError.parameter { try database.weeklyReview(named: week) }, calendar: calendar, today: today)
    }

    /// Usage per app and day (30 days), newest first, with the apps' names.
    private func pauseUsage() throws -> PauseUsagePage {
        let names = Dictionary(try database.apps().map { ($0.id, $0.displayName) }, uniquingKeysWith: { a, _ in a })
        let rows = try database.usageStatistics().map { s in
            PauseUsagePage.Row(
                day: s.date.description, app: names[s.appId] ?? s.appId, total: s.totalSessions, completed: s.completedSessions,
                exited: s.exitedSessions, average: String(format: "%.0f", s.avgTimeSpent), rate: Int((s.completionRate * 100).rounded()),
                meets: s.meetsTarget, streak: s.streakCount, streakWord: s.streakCount == 1 ? "day" : "days")
        }
        let base = try database.pausePreferences().timerDuration
        let adaptive = Dictionary(try database.adaptiveFriction().map { ($0.appId, $0) }, uniquingKeysWith: { a, _ in a })
        let friction = try database.apps().filter { $0.isEnabled || adaptive[$0.id] != nil }.map { app in
            let f = adaptive[app.id]
            return PauseUsagePage.Friction(
                id: app.id, app: app.displayName, on: f != nil, length: "\(f?.effectiveDuration(base: base) ?? base) s",
                review: f?.reviewDescription ?? "off")
        }
        return PauseUsagePage(rows: rows, empty: rows.isEmpty, friction: friction)
    }

    static let fetchSite = HTTPField.Name("Sec-Fetch-Site")

    /// The gateway: `to` is where the person was going (kept only if it is one of the app's pages);
    /// `session` is the pause this page already shows (a reload: no new attempt, the same countdown).
    private func gateway(_ id: String, request: Request) throws -> PausePage {
        guard let app = try database.app(id: id) else { throw PauseValidationError.unknownApp(id) }
        let target = request.queryString("to").flatMap { app.owns($0) ? $0 : nil } ?? app.webURL ?? ""
        let shown = try request.queryString("session").flatMap(UUID.init(uuidString:)).flatMap { try database.gatewaySession(id: $0) }
            .flatMap { $0.appId == id ? $0 : nil }
        let attempts = try database.attemptsToday(appId: id, before: shown?.startTimestamp)
        // A link followed from another site (the browser says so in `Sec-Fetch-Site`) is not an attempt
        // the person made: any page could otherwise fill the Pause statistics. The page asks first. The
        // extension's redirect, a typed address and Grove's own links are "none" or "same-origin".
        let fromElsewhere = ["cross-site", "same-site"].contains(Self.fetchSite.flatMap { request.headers[$0] }?.lowercased() ?? "")
        return PausePage(
            title: app.isEnabled ? "Pause before \(app.displayName)" : app.displayName, app: app.view, gated: app.isEnabled,
            target: target, attemptsToday: attempts, firstVisit: attempts == 0, times: attempts == 1 ? "time" : "times",
            confirm: fromElsewhere && shown == nil && request.queryString("key") != configuration.gateKey)
    }

    private func dashboard() throws -> DashboardPage {
        let wall = try wallFormatter()
        let reminders = try database.upcomingReminders().map { ReminderLine(kind: $0.kind.rawValue.capitalized, at: wall($0.at)) }
        let runs = try database.timerRuns().map(RunView.init)
        return DashboardPage(
            title: "Today", stats: statsView(try database.forestStats()), reminders: reminders, hasReminders: !reminders.isEmpty,
            focusLength: Int(try database.focusPreferences().focusDuration / 60),
            intentions: try intentionCards(elementID: "intention-card", rephrasable: false),
            setupNeeded: try database.needsSetup(), runs: runs, hasRuns: !runs.isEmpty)
    }

    /// The first-run setup, filled with the current choices.
    private func setup() throws -> SetupPage {
        let focus = try database.focusPreferences()
        let reminders = try database.userPreferences().notificationSettings
        return SetupPage(
            focusMinutes: Int(focus.focusDuration / 60), shortBreakMinutes: Int(focus.shortBreakDuration / 60),
            longBreakMinutes: Int(focus.longBreakDuration / 60),
            apps: try database.apps().map { SetupPage.App(id: $0.id, name: $0.displayName, gated: $0.isEnabled, site: $0.webURL) },
            dailyReminder: reminders.dailyEnabled ? reminders.dailyTime?.description : nil, firstRun: try database.needsSetup())
    }

    private func focus() throws -> FocusPage {
        let minutes = Int(try database.focusPreferences().focusDuration / 60)
        let lengths = Set([15, 25, 45, 50, 90, minutes]).sorted().map { LengthOption(minutes: $0, selected: $0 == minutes) }
        return FocusPage(
            title: "Focus", lengths: lengths, stats: statsView(try database.forestStats()),
            nextBreak: ForestStats.formatDuration(try database.nextBreak().duration),
            knownTags: try database.focusTags(limit: 50).map(\.tag))
    }

    /// Two weeks of planting at a time, from the per-day totals; "Older" continues before the last day shown.
    /// `?tag=` of a page: an empty one (the picker's "All sessions") is none.
    private func tag(_ request: Request) -> String? {
        guard let raw = request.queryString("tag")?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else { return nil }
        return raw
    }

    /// The picker, with `tag` chosen; nil when no session carries a tag.
    private func tagFilter(_ tag: String?) throws -> TagFilterView? {
        var tags = try database.focusTags(limit: 200).map(\.tag).sorted { $0.lowercased() < $1.lowercased() }
        if let tag, !tags.contains(tag) { tags.insert(tag, at: 0) }
        return tags.isEmpty ? nil : TagFilterView(options: tags.map { .init(tag: $0, selected: $0 == tag) })
    }

    /// About how many trees one page of the web forest draws (whole days: at least one).
    static let treesPerForestPage = 500

    private func forest(before: LocalDay?, tag: String?) throws -> ForestPage {
        // A page holds the last 14 days with trees, or fewer when they hold more than ~500 trees (a
        // heavy week is a long scroll and a large page): the days' counts first, then their trees.
        let counts = try database.forestWindow(before: before, sessions: false, tag: tag)
        var shownDays = 0, shownTrees = 0
        for day in counts.days {
            if shownDays > 0 && shownTrees + day.trees > Self.treesPerForestPage { break }
            shownDays += 1
            shownTrees += day.trees
        }
        let window = try database.forestWindow(days: max(1, shownDays), before: before, tag: tag)
        let wall = try wallFormatter()
        let days = window.days.map { day in
            ForestDay(
                day: day.day.description,
                trees: day.sessions.map { tree in
                    TreeView(
                        minutes: Int(tree.duration / 60), at: tree.endTime.map(wall) ?? "", variant: Int(stableHash(tree.id.uuidString) % 3)
                    )
                })
        }
        let total = try database.forestStats(tag: tag).totalTrees
        var page = ForestPage(
            title: "Forest", tag: tag, tagFilter: try tagFilter(tag), days: days, total: total, empty: days.isEmpty && before == nil,
            totalWord: total == 1 ? "tree" : "trees", older: window.older?.description, newer: before != nil)
        if let tag {
            page.tagQuery = "?tag=" + QueryText.encode(tag)
            page.tagAnd = "&tag=" + QueryText.encode(tag)
        }
        return page
    }

    private func stats(tag: String?) throws -> StatsPage {
        let stats = try database.forestStats(tag: tag)
        // Year heatmap: one column per week, one row per weekday.
        let heatmap = try database.yearHeatmap(tag: tag)
        let cells = heatmap.cells.map { cell in
            HeatmapCell(
                x: 24 + cell.week * 13, y: 14 + cell.row * 13, level: cell.level,
                title: "\(cell.day): \(cell.trees) tree\(cell.trees == 1 ? "" : "s")")
        }
        // Today read once: the `today` property reads the configured calendar from the store.
        let today = heatmap.end
        let daily = try database.dailyFocusTotals(from: today.adding(days: -29), to: today, tag: tag)
        let byDay = Dictionary(daily.map { ($0.day, $0) }, uniquingKeysWith: { a, _ in a })
        // Focus minutes per day, last 30 days.
        let maxMinutes = max(1, (0..<30).map { Int((byDay[today.adding(days: -$0)]?.focusTime ?? 0) / 60) }.max() ?? 1)
        let bars = (0..<30).map { i -> MinutesBar in
            let d = today.adding(days: i - 29)
            let minutes = Int((byDay[d]?.focusTime ?? 0) / 60)
            let height = minutes * 120 / maxMinutes
            return MinutesBar(
                x: 30 + i * 22, y: 140 - height, height: height, minutes: minutes, label: d.description,
                tick: i % 7 == 1 ? String(d.description.suffix(5)) : "")
        }
        let rowLabels = (0..<7).filter { $0 % 2 == 1 }.map {
            RowLabel(y: 24 + $0 * 13, name: Weekday(wrapping: heatmap.firstWeekday + $0).shortName)
        }
        return StatsPage(
            title: tag.map { "Stats · \($0)" } ?? "Stats", tag: tag, tagFilter: try tagFilter(tag), stats: statsView(stats), cells: cells,
            bars: bars, rowLabels: rowLabels, maxMinutes: maxMinutes,
            heatmapWidth: 24 + heatmap.weeks * 13)
    }

    private func timers(order: AppDatabase.TimerOrder, incompleteOnly: Bool) throws -> TimersPage {
        let items = try database.timers(orderedBy: order, incompleteOnly: incompleteOnly).map { t in
            TimerView(
                id: t.id.uuidString, name: t.name, seconds: t.durationInSeconds, formatted: t.formattedDuration, color: t.colorHex,
                icon: t.icon,
                notes: t.notes ?? "", done: t.todoItems.filter(\.isCompleted).count, count: t.todoItems.count,
                todos: t.todoItems.enumerated().map {
                    TodoView(
                        id: $0.element.id.uuidString, timerId: t.id.uuidString, text: $0.element.text, done: $0.element.isCompleted,
                        n: $0.offset + 1)
                },
                glyph: TimerIcon.glyph(t.icon),
                minutes: t.durationInSeconds % 60 == 0 ? String(t.durationInSeconds / 60) : String(Double(t.durationInSeconds) / 60),
                colorInput: t.colorHex.lowercased(),
                icons: (TimerIcon.choices.contains { $0.name == t.icon }
                    ? [] : [IconOption(name: t.icon, label: t.icon, glyph: "⏱", selected: true)])
                    + TimerIcon.choices.map { IconOption(name: $0.name, label: $0.label, glyph: $0.glyph, selected: $0.name == t.icon) })
        }
        let views = [
            ("Newest first", "createdAt", false), ("By name", "name", false), ("Unfinished to-dos", "createdAt", true),
            ("Unfinished, by name", "name", true),
        ]
        .map {
            TimersPage.View(
                label: $0.0, link: "/timers?sort=\($0.1)\($0.2 ? "&incomplete=true" : "")",
                current: $0.1 == order.rawValue && $0.2 == incompleteOnly)
        }
        return TimersPage(title: "Timers", timers: items, empty: items.isEmpty, filtered: incompleteOnly, views: views)
    }

    private func intentions(query: String?) throws -> IntentionsPage {
        let list = try (query.map { try database.searchIntentions($0) } ?? database.intentions()).prefix(200)
        let calendar = try database.calendar()
        return IntentionsPage(
            title: "Intentions", query: query ?? "", today: calendar.localDay(of: database.environment.now()).description,
            themes: try database.themes().map { ThemeChoice(id: $0.id.uuidString, name: $0.name) },
            items: list.map {
                IntentionLine(
                    id: $0.id.uuidString, text: $0.text, scope: $0.scope.rawValue,
                    date: $0.scope.periodLabel(containing: $0.date, calendar: calendar))
            },
            cards: try intentionCards(elementID: "current-intention", rephrasable: true))
    }

    private func themes(kind: AppDatabase.ThemeKind?) throws -> ThemesPage {
        let preferences = try database.userPreferences()
        let list = try database.themes(kind).map { t in
            ThemeView(
                id: t.id.uuidString, name: t.name, background: t.backgroundColor, color: t.textColor, accent: t.readableAccent,
                kind: t.isPreset ? "Preset" : t.isAIGenerated ? "Generated" : "Custom", deletable: !t.isPreset,
                contrast: String(format: "%.1f", t.contrastRatio), isDefault: t.id == preferences.defaultThemeId,
                font: FontStack.css(for: t.fontName), backgroundInput: t.backgroundColor.lowercased(), textInput: t.textColor.lowercased(),
                accentInput: (t.accentColor ?? t.textColor).lowercased(), fonts: Self.fontOptions(selected: t.fontName))
        }
        let kinds = AppDatabase.ThemeKind.allCases.map {
            CategoryView(id: $0.rawValue, name: $0.rawValue.capitalized, selected: $0 == kind)
        }
        return ThemesPage(
            title: "Themes", kind: kind?.rawValue, kinds: kinds, themes: list, fonts: Self.fontOptions(selected: nil),
            defaultFonts: Self.fontOptions(selected: preferences.defaultFont))
    }

    /// The font menu: Default (none), the web-safe stacks, and a stored name that is none of them.
    private static func fontOptions(selected: String?) -> [FontOption] {
        let known = FontStack.allCases.map {
            FontOption(value: $0.rawValue, label: $0.label, selected: selected?.lowercased() == $0.rawValue)
        }
        let other =
            selected.flatMap { name in
                FontStack(rawValue: name.lowercased()) == nil && !name.isEmpty
                    ? [FontOption(value: name, label: name, selected: true)] : nil
            } ?? []
        return [FontOption(value: "", label: "Default", selected: selected?.isEmpty ?? true)] + known + other
    }

    private func settings() throws -> SettingsPage {
        let focus = try database.focusPreferences()
        let prefs = try database.userPreferences()
        let n = prefs.notificationSettings
        let pause = try database.pausePreferences()
        let upcoming = try database.upcomingReminders()
        let wall = try wallFormatter()
        func next(_ kind: ReminderKind) -> String { upcoming.first { $0.kind == kind }.map { wall($0.at) } ?? "off" }
        return SettingsPage(
            title: "Settings", focusMinutes: Int(focus.focusDuration / 60), shortBreak: Int(focus.shortBreakDuration / 60),
            longBreak: Int(focus.longBreakDuration / 60), interval: focus.longBreakInterval,
            dailyEnabled: n.dailyEnabled, dailyTime: n.dailyTime?.description ?? "08:00", dailyNext: next(.daily),
            weeklyEnabled: n.weeklyEnabled, weeklyTime: n.weeklyTime?.description ?? "09:00", weeklyNext: next(.weekly),
            weeklyDays: Weekday.allCases.map { DayOption(value: $0.rawValue, name: $0.name, selected: $0.rawValue == n.weeklyDay) },
            monthlyEnabled: n.monthlyEnabled, monthlyTime: n.monthlyTime?.description ?? "09:00", monthlyDay: n.monthlyDay,
            monthlyNext: next(.monthly),
            zone: try database.calendar().timeZone.identifier, pauseDuration: pause.timerDuration, apps: try database.apps().map(\.view),
            enabledCount: pause.enabledApps.count,
            categories: MindfulnessContent.ContentCategory.allCases.map {
                CategoryView(id: $0.rawValue, name: $0.displayName, selected: pause.selectedCategories.contains($0))
            }, analyticsOptIn: pause.analyticsOptIn)
    }
}

extension SocialApp {
    /// The app as pages show it.
    var view: AppView { AppView(id: id, name: displayName, scheme: urlScheme, webURL: webURL ?? "", enabled: isEnabled) }
}
