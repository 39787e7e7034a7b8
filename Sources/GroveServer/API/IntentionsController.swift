import Foundation
import GroveCore
import GroveRemote
import GroveStore
import Hummingbird
import ServiceLifecycle

/// `/api/v1/intentions/…`, `/api/v1/themes/…`, `/api/v1/preferences/…`
struct IntentionsController {
    let database: AppDatabase
    let assistant: Assistant

    /// Sets the intention for the period of `scope` containing `date` (today by default).
    struct SetInput: Decodable {
        var text: String
        var scope: IntentionScope
        var date: LocalDay?
        var themeId: UUID?
        var customFont: String?
        var quote: String?
        /// The words came from the assistant (shown as such).
        var aiGenerated: Bool?
    }
    struct UpdateInput: Decodable {
        var text: String?
        var themeId: UUID?
        var customFont: String?
        var quote: String?
        var date: LocalDay?
    }
    struct ThemeInput: Decodable {
        var name: String; var backgroundColor: String; var textColor: String; var accentColor: String?; var fontName: String?
        /// Save colours under 4.5:1 anyway (the person saw the warning); never under 1.5:1.
        var allowLowContrast: Bool?
    }
    struct GenerateInput: Decodable { var prompt: String }
    /// A wording the person saw in a preview and accepts (`apply=true`): saved as it was shown.
    struct RephraseInput: Decodable { var text: String?; var quote: String?; var assistant: String? }
    struct Reminder: Encodable, Sendable { var kind: ReminderKind; var at: Date; var prompt: String }

    func addRoutes(to api: APIRouter) {
        api.get("intentions", cache: .data, use: list)
        api.post("intentions", use: set)
        api.get("intentions/current", cache: .day, use: current)
        api.get("intentions/search", cache: .data, use: search)
        api.get("intentions/:id", cache: .data, use: show)
        api.put("intentions/:id", use: update)
        api.delete("intentions/:id", use: delete)
        api.post("intentions/:id/rephrase", use: rephrase)
        api.get("themes", cache: .data, use: themeList)
        api.post("themes", use: createTheme)
        api.post("themes/generate", use: generateTheme)
        api.get("themes/:id", cache: .data, use: showTheme)
        api.put("themes/:id", use: updateTheme)
        api.delete("themes/:id", use: deleteTheme)
        api.get("preferences", cache: .data, use: showPreferences)
        api.put("preferences", use: updatePreferences)
        api.get("preferences/notifications", cache: .data, use: notificationSettings)
        api.put("preferences/notifications", use: updateNotificationSettings)
        api.patch("preferences/notifications", use: changeNotificationSettings)
        api.put("preferences/default-theme", use: setDefaultTheme)
        api.put("preferences/default-font", use: setDefaultFont)
        api.get("reminders", cache: .minute, use: reminders)
    }

    // MARK: Intentions

    /// `GET /intentions?q=|from=&to=&scope=`
    /// `GET /intentions?from=&to=&scope=&q=&limit=&after=`: newest first, a page at a time (up to
    /// 1000, the default); a full page's `Link` header names the next one.
    @Sendable func list(_ request: Request, context: GroveRequestContext) throws -> Page<Intention> {
        let limit = try request.query("limit", in: 1...IntentionsRoom.maxPageSize) ?? IntentionsRoom.maxPageSize
        let items = try database.intentions.page(
            // An open end reaches as far as a date can, as `grove intention list --from/--to` does.
            from: try request.query("from", LocalDay.init(validating:field:)),
            to: try request.query("to", LocalDay.init(validating:field:)),
            scope: try request.query("scope", IntentionScope.init(validating:field:)), matching: request.queryString("q"),
            after: try request.query("after", IntentionCursor.init(validating:field:)), limit: limit)
        return Page(items: items, limit: limit, offset: 0, next: items.last.map { IntentionCursor(after: $0).token })
    }

    /// `POST /intentions`: sets the intention for the period of `scope` containing `date`.
    @Sendable func set(_ request: Request, context: GroveRequestContext) async throws -> JSON<Intention> {
        let input = try await request.decode(as: SetInput.self, context: context)
        let intention = try database.intentions.set(
            input.text, scope: input.scope, date: input.date, themeId: input.themeId,
            customFont: input.customFont, quote: input.quote, aiGenerated: input.aiGenerated ?? false)
        return JSON(intention, status: .created)
    }

    /// `GET /intentions/current?date=`: day over week over month; null when none is set.
    @Sendable func current(_ request: Request, context: GroveRequestContext) throws -> JSON<Intention?> {
        if let date = try request.query("date", LocalDay.init(validating:field:)) {
            return JSON(try database.intentions.current(on: date))
        }
        return JSON(try database.intentions.current())
    }

    /// `GET /intentions/search?q=`
    @Sendable func search(_ request: Request, context: GroveRequestContext) throws -> JSON<[Intention]> {
        guard let q = request.queryString("q") else { throw APIError.badRequest(field: "q", detail: "q is required") }
        return JSON(try database.intentions.search(q))
    }

    /// `GET /intentions/:id`
    @Sendable func show(_ request: Request, context: GroveRequestContext) throws -> JSON<Intention> {
        JSON(try intention(try context.uuid("id")))
    }

    /// `PUT /intentions/:id`: only the fields given change.
    @Sendable func update(_ request: Request, context: GroveRequestContext) async throws -> JSON<Intention> {
        let input = try await request.decode(as: UpdateInput.self, context: context)
        let changes = IntentionChanges(
            text: input.text, themeId: input.themeId, customFont: input.customFont, quote: input.quote, date: input.date)
        let id = try context.uuid("id")
        return JSON(try database.intentions.edit(id: id, changes))
    }

    /// `DELETE /intentions/:id`
    @Sendable func delete(_ request: Request, context: GroveRequestContext) throws -> NoContent {
        try database.intentions.delete(id: try context.uuid("id"))
        return NoContent()
    }

    /// `POST /intentions/:id/rephrase?apply=true|false`: a preview, or applied when `apply=true`.
    /// The wording comes from the body when given (the preview being accepted), else from the model
    /// if one is configured, else from the offline assistant.
    @Sendable func rephrase(_ request: Request, context: GroveRequestContext) async throws -> JSON<Rephrasing> {
        let id = try context.uuid("id"), apply = try request.flag("apply")
        let input = try await request.decodeIfPresent(RephraseInput.self, context: context)
        if let text = input?.text {
            let by = input?.assistant.map { String($0.prefix(100)) } ?? "offline"
            return JSON(try database.intentions.rephrase(id: id, apply: apply, proposal: text, quote: input?.quote, assistant: by))
        }
        guard let intention = try database.intentions.find(id: id) else { throw NotFoundError("intention", id.uuidString) }
        let proposal = await assistant.rephrasing(intention)
        return JSON(try database.intentions.rephrase(id: id, apply: apply, proposal: proposal?.text, assistant: proposal?.by ?? "offline"))
    }

    // MARK: Preferences and reminders

    /// `GET /preferences`
    @Sendable func showPreferences(_ request: Request, context: GroveRequestContext) throws -> JSON<UserPreferences> {
        JSON(try database.intentions.preferences())
    }

    /// `PUT /preferences`
    @Sendable func updatePreferences(_ request: Request, context: GroveRequestContext) async throws -> JSON<UserPreferences> {
        let input = try await request.decode(as: UserPreferences.self, context: context)
        return JSON(try database.intentions.replacePreferences(input))
    }

    /// `GET /preferences/notifications`
    @Sendable func notificationSettings(_ request: Request, context: GroveRequestContext) throws -> JSON<NotificationSettings> {
        JSON(try database.intentions.preferences().notificationSettings)
    }

    /// `PUT /preferences/notifications`
    @Sendable func updateNotificationSettings(_ request: Request, context: GroveRequestContext) async throws -> JSON<NotificationSettings> {
        let settings = try await request.decode(as: NotificationSettings.self, context: context)
        try database.intentions.changePreferences { $0.notificationSettings = settings }
        return JSON(try database.intentions.preferences().notificationSettings)
    }

    /// Some reminder settings; the fields left out keep their stored values.
    struct NotificationChange: Decodable {
        var dailyEnabled: Bool?, dailyTime: TimeOfDay?, weeklyEnabled: Bool?, weeklyTime: TimeOfDay?, weeklyDay: Int?
        var monthlyEnabled: Bool?, monthlyTime: TimeOfDay?, monthlyDay: Int?
    }

    /// `PATCH /preferences/notifications`: changes only the fields given, in one transaction.
    @Sendable func changeNotificationSettings(_ request: Request, context: GroveRequestContext) async throws -> JSON<NotificationSettings> {
        let input = try await request.decode(as: NotificationChange.self, context: context)
        return JSON(
            try database.intentions.changePreferences { preferences in
                var n = preferences.notificationSettings
                if let value = input.dailyEnabled { n.dailyEnabled = value }
                if let value = input.dailyTime { n.dailyTime = value }
                if let value = input.weeklyEnabled { n.weeklyEnabled = value }
                if let value = input.weeklyTime { n.weeklyTime = value }
                if let value = input.weeklyDay { n.weeklyDay = value }
                if let value = input.monthlyEnabled { n.monthlyEnabled = value }
                if let value = input.monthlyTime { n.monthlyTime = value }
                if let value = input.monthlyDay { n.monthlyDay = value }
                preferences.notificationSettings = n
            }.notificationSettings)
    }

    struct DefaultThemeInput: Decodable { var themeId: UUID? }

    /// `PUT /preferences/default-theme`: the theme intentions without one of their own are shown in
    /// (null: the built-in default).
    @Sendable func setDefaultTheme(_ request: Request, context: GroveRequestContext) async throws -> JSON<UserPreferences> {
        let input = try await request.decode(as: DefaultThemeInput.self, context: context)
        return JSON(try database.themes.setDefault(input.themeId))
    }

    struct DefaultFontInput: Decodable { var fontName: String? }

    /// `PUT /preferences/default-font`: the font cards are drawn in when neither the intention nor its
    /// theme names one (null or "": the page's). Only the web draws fonts.
    @Sendable func setDefaultFont(_ request: Request, context: GroveRequestContext) async throws -> JSON<UserPreferences> {
        let input = try await request.decode(as: DefaultFontInput.self, context: context)
        return JSON(try database.themes.setDefaultFont(input.fontName))
    }

    /// `GET /reminders`: the next daily, weekly and monthly reminder instants.
    @Sendable func reminders(_ request: Request, context: GroveRequestContext) throws -> JSON<[Reminder]> {
        JSON(try database.intentions.upcomingReminders().map { Reminder(kind: $0.kind, at: $0.at, prompt: $0.kind.prompt) })
    }

    func theme(_ context: GroveRequestContext) throws -> IntentionTheme {
        guard let theme = try database.themes.find(id: try context.uuid("id")) else {
            throw NotFoundError("theme", try context.string("id"))
        }
        return theme
    }

    func intention(_ id: UUID) throws -> Intention {
        guard let item = try database.intentions.find(id: id) else { throw NotFoundError("intention", id.uuidString) }
        return item
    }

}
