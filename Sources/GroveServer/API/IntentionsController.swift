import Foundation
import GroveCore
import GroveStore
import HTTPTypes
import Hummingbird
import ServiceLifecycle

/// `/api/v1/intentions/…`, `/api/v1/themes/…`, `/api/v1/preferences/…`
struct IntentionsController {
    let database: AppDatabase

    /// Sets the intention for the period of `scope` containing `date` (today by default).
    struct SetInput: Decodable {
        var text: String
        var scope: IntentionScope
        var date: LocalDay?
        var themeId: UUID?
        var customFont: String?
        var quote: String?
    }
    struct UpdateInput: Decodable {
        var text: String?
        var themeId: UUID?
        var customFont: String?
        var quote: String?
        var date: LocalDay?
    }
    struct Rephrasing: Encodable, Sendable { var text: String; var quote: String?; var intention: Intention }
    struct ThemeInput: Decodable { var name: String; var backgroundColor: String; var textColor: String; var accentColor: String?; var fontName: String? }
    struct GenerateInput: Decodable { var prompt: String }
    struct Reminder: Encodable, Sendable { var kind: ReminderKind; var at: Date; var prompt: String }

    var themes: ThemeRepository { ThemeRepository(database: database) }
    var preferences: UserPreferencesRepository { UserPreferencesRepository(database: database) }

    func addRoutes(to api: APIRouter) {
        api.get("intentions") { request, _ in
            let today = try database.calendar().localDay(of: database.environment.now())
            var items: [Intention]
            if let q = request.queryString("q") {
                items = try database.searchIntentions(q)
            } else if request.queryString("from") != nil || request.queryString("to") != nil {
                items = try database.intentions(from: try day(request, "from") ?? today.adding(days: -36_500), to: try day(request, "to") ?? today.adding(days: 36_500))
            } else {
                items = try database.intentions()
            }
            if let raw = request.queryString("scope") {
                guard let scope = IntentionScope(rawValue: raw) else { throw APIError.badRequest(field: "scope", detail: "scope must be day, week or month") }
                items = items.filter { $0.scope == scope }
            }
            return JSON(items)
        }
        api.post("intentions") { request, context in
            let input = try await request.decode(as: SetInput.self, context: context)
            let intention = try database.setIntention(input.text, scope: input.scope, date: input.date, themeId: input.themeId,
                                                      customFont: input.customFont, quote: input.quote)
            return JSON(intention, status: .created)
        }
        api.get("intentions/current") { request, _ in JSON(try database.currentIntention(on: try day(request, "date"))) }
        api.get("intentions/search") { request, _ in
            guard let q = request.queryString("q") else { throw APIError.badRequest(field: "q", detail: "q is required") }
            return JSON(try database.searchIntentions(q))
        }
        api.get("intentions/:id") { _, context in JSON(try intention(try context.uuid("id"))) }
        api.put("intentions/:id") { request, context in
            let input = try await request.decode(as: UpdateInput.self, context: context)
            var item = try intention(try context.uuid("id"))
            if let text = input.text { item.text = text }
            if let themeId = input.themeId { item.themeId = themeId }
            if let font = input.customFont { item.customFont = font }
            if let quote = input.quote { item.quote = quote }
            if let date = input.date { item.date = date }
            let updated = try database.updateIntention(item)
            return JSON(updated)
        }
        api.delete("intentions/:id") { _, context in
            try database.deleteIntention(id: try context.uuid("id"))
            return NoContent()
        }
        api.post("intentions/:id/rephrase") { request, context in
            var item = try intention(try context.uuid("id"))
            let text = OfflineAssistant.rephrased(item.text, scope: item.scope)
            let quote = OfflineAssistant.bestQuote(for: item.text, from: try database.contents())
            if try request.flag("apply") {
                item.text = text
                item.aiRephrased = true
                item.quote = quote ?? item.quote
                item = try database.updateIntention(item)
            }
            return JSON(Rephrasing(text: text, quote: quote, intention: item))
        }

        api.get("themes") { request, _ in
            switch request.queryString("kind") {
            case nil: return JSON(try themes.getAll())
            case "preset": return JSON(try themes.getPresetThemes())
            case "custom": return JSON(try themes.getCustomThemes())
            case "generated": return JSON(try themes.getAIGeneratedThemes())
            default: throw APIError.badRequest(field: "kind", detail: "kind must be preset, custom or generated")
            }
        }
        api.post("themes") { request, context in
            let input = try await request.decode(as: ThemeInput.self, context: context)
            let theme = IntentionTheme(id: database.environment.uuid(), name: input.name, backgroundColor: input.backgroundColor.uppercased(),
                                       textColor: input.textColor.uppercased(), accentColor: input.accentColor?.uppercased(), fontName: input.fontName,
                                       createdAt: database.environment.now())
            try themes.create(theme)
            return JSON(theme, status: .created)
        }
        api.post("themes/generate") { request, context in
            let input = try await request.decode(as: GenerateInput.self, context: context)
            let theme = try await OfflineAssistant().generateTheme(prompt: input.prompt, id: database.environment.uuid(), createdAt: database.environment.now())
            try themes.create(theme)
            return JSON(theme, status: .created)
        }
        api.get("themes/:id") { _, context in
            guard let theme = try themes.getTheme(byId: try context.uuid("id")) else { throw NotFoundError("theme", try context.string("id")) }
            return JSON(theme)
        }
        api.put("themes/:id") { request, context in
            let input = try await request.decode(as: ThemeInput.self, context: context)
            guard var theme = try themes.getTheme(byId: try context.uuid("id")) else { throw NotFoundError("theme", try context.string("id")) }
            theme.name = input.name
            theme.backgroundColor = input.backgroundColor.uppercased()
            theme.textColor = input.textColor.uppercased()
            theme.accentColor = input.accentColor?.uppercased()
            theme.fontName = input.fontName
            try themes.update(theme)
            return JSON(theme)
        }
        api.delete("themes/:id") { _, context in
            guard let theme = try themes.getTheme(byId: try context.uuid("id")) else { throw NotFoundError("theme", try context.string("id")) }
            try themes.delete(theme)
            return NoContent()
        }

        api.get("preferences") { _, _ in JSON(try preferences.getOrCreatePreferences()) }
        api.put("preferences") { request, context in
            var input = try await request.decode(as: UserPreferences.self, context: context)
            input.id = try preferences.getOrCreatePreferences().id
            try preferences.update(input)
            return JSON(try preferences.getOrCreatePreferences())
        }
        api.get("preferences/notifications") { _, _ in JSON(try preferences.getOrCreatePreferences().notificationSettings) }
        api.put("preferences/notifications") { request, context in
            try preferences.updateNotificationSettings(try await request.decode(as: NotificationSettings.self, context: context))
            return JSON(try preferences.getOrCreatePreferences().notificationSettings)
        }
        api.get("reminders") { _, _ in JSON(try database.upcomingReminders().map { Reminder(kind: $0.kind, at: $0.at, prompt: $0.kind.prompt) }) }
    }

    private func intention(_ id: UUID) throws -> Intention {
        guard let item = try database.intention(id: id) else { throw NotFoundError("intention", id.uuidString) }
        return item
    }

    private func day(_ request: Request, _ name: String) throws -> LocalDay? {
        guard let raw = request.queryString(name) else { return nil }
        guard let day = LocalDay(raw) else { throw APIError.badRequest(field: name, detail: "\(name) must be a date like 2025-03-09") }
        return day
    }
}

/// `/api/v1/export`, `/api/v1/import`, `/api/v1/events`, `/api/v1/openapi.yaml`
struct DataController {
    let database: AppDatabase
    let monitor: ChangeMonitor

    struct ImportResult: Encodable, Sendable { var focusSessions: Int; var timers: Int; var intentions: Int; var gatewaySessions: Int; var themes: Int }

    func addRoutes(to api: APIRouter) {
        api.get("export") { request, _ in
            switch request.queryString("format") ?? "json" {
            case "json": return JSON<Int>.encode(try database.exportJSON())
            case "csv": return JSON<Int>.encode(Data(try database.exportFocusSessionsCSV().utf8), contentType: "text/csv; charset=utf-8")
            case "ics": return JSON<Int>.encode(Data(try database.exportFocusSessionsICS().utf8), contentType: "text/calendar; charset=utf-8")
            default: throw APIError.badRequest(field: "format", detail: "format must be json, csv or ics")
            }
        }
        api.post("import") { request, context in
            let export = try await request.decode(as: GroveExport.self, context: context)
            try database.importExport(export)
            return JSON(ImportResult(focusSessions: export.focusSessions.count, timers: export.timers.count, intentions: export.intentions.count,
                                     gatewaySessions: export.gatewaySessions.count, themes: export.themes.count))
        }
        api.get("events") { _, _ in
            let (id, events) = monitor.subscription()
            let generation = monitor.generation
            return Response(
                status: .ok,
                headers: [.contentType: "text/event-stream", .cacheControl: "no-cache", HTTPField.Name.xAccelBuffering: "no"],
                body: ResponseBody { writer in
                    // Open streams must not hold a graceful shutdown: end them when it starts.
                    try await withGracefulShutdownHandler {
                        try await writer.write(ByteBuffer(string: "retry: 1000\nevent: hello\ndata: {\"generation\":\(generation)}\n\n"))
                        for await event in events { try await writer.write(ByteBuffer(string: event.frame)) }
                    } onGracefulShutdown: {
                        monitor.unsubscribe(id)
                    }
                    monitor.unsubscribe(id)
                    try await writer.finish(nil)
                })
        }
        api.get("openapi.yaml") { _, _ in
            JSON<Int>.encode(Data(try OpenAPIDocument.yaml().utf8), contentType: "application/yaml; charset=utf-8")
        }
    }
}

/// The OpenAPI 3.1 document shipped with the server.
enum OpenAPIDocument {
    static func yaml() throws -> String {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml", subdirectory: "Resources") else {
            throw APIError.notFound("openapi.yaml is missing from the build")
        }
        return try String(contentsOf: url, encoding: .utf8)
    }
}

extension HTTPField.Name {
    /// Tells a proxy (nginx) not to buffer an event stream.
    static var xAccelBuffering: Self { Self("X-Accel-Buffering") ?? .cacheControl }
}
