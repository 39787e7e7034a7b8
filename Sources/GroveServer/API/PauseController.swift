import Foundation
import GroveCore
import GroveStore
import Hummingbird

/// `/api/v1/pause/…`: apps, content, gateway sessions and usage.
struct PauseController {
    let database: AppDatabase

    struct StartInput: Decodable { var appId: String; var platform: String? }
    struct StartOutput: Encodable, Sendable { var session: GatewaySession; var content: MindfulnessContent; var attemptsToday: Int; var app: SocialApp }
    struct FinishInput: Decodable { var completionStatus: GatewaySession.CompletionType; var actionOutcome: GatewaySession.ActionType? }
    struct Attempts: Encodable, Sendable { var appId: String; var attemptsToday: Int }

    func addRoutes(to api: APIRouter) {
        api.get("pause/apps") { _, _ in JSON(try database.apps()) }
        api.post("pause/apps") { request, context in
            let app = try await request.decode(as: SocialApp.self, context: context)
            try database.addApp(app)
            return JSON(app, status: .created)
        }
        api.get("pause/apps/:appId") { _, context in JSON(try app(try context.string("appId"))) }
        api.put("pause/apps/:appId") { request, context in
            var app = try await request.decode(as: SocialApp.self, context: context)
            let id = try context.string("appId")
            app.id = id
            try database.updateApp(app)
            return JSON(app)
        }
        api.delete("pause/apps/:appId") { _, context in
            try database.deleteApp(id: try context.string("appId"))
            return NoContent()
        }
        api.get("pause/apps/:appId/attempts") { _, context in
            let id = try context.string("appId")
            _ = try app(id)
            return JSON(Attempts(appId: id, attemptsToday: try database.attemptsToday(appId: id)))
        }
        api.get("pause/content") { request, _ in
            let category = try request.queryString("category").map { raw -> MindfulnessContent.ContentCategory in
                guard let c = MindfulnessContent.ContentCategory(rawValue: raw) else { throw APIError.badRequest(field: "category", detail: "Unknown category \"\(raw)\"") }
                return c
            }
            return JSON(try database.contents(category: category))
        }
        api.post("pause/content") { request, context in
            let item = try await request.decode(as: MindfulnessContent.self, context: context)
            var mine = item
            mine.isBundled = false
            try database.saveContents([mine])
            return JSON(try database.content(id: mine.id) ?? mine, status: .created)
        }
        api.delete("pause/content/:contentId") { _, context in
            try database.deleteContent(id: try context.string("contentId"))
            return NoContent()
        }
        api.post("pause/sessions") { request, context in
            let input = try await request.decode(as: StartInput.self, context: context)
            let app = try app(input.appId)
            let attempts = try database.attemptsToday(appId: app.id)
            let (session, content) = try database.startGatewaySession(appId: app.id, platform: input.platform ?? "web")
            return JSON(StartOutput(session: session, content: content, attemptsToday: attempts, app: app), status: .created)
        }
        api.get("pause/sessions") { request, _ in
            JSON(try database.gatewaySessions(appId: request.queryString("appId"), limit: try request.page().limit))
        }
        api.get("pause/sessions/:id") { _, context in
            guard let session = try database.gatewaySession(id: try context.uuid("id")) else { throw NotFoundError("gateway session", try context.string("id")) }
            return JSON(session)
        }
        api.post("pause/sessions/:id/finish") { request, context in
            let input = try await request.decode(as: FinishInput.self, context: context)
            let session = try database.finishGatewaySession(id: try context.uuid("id"), status: input.completionStatus, outcome: input.actionOutcome)
            return JSON(session)
        }
        api.get("pause/usage") { request, _ in
            let from = try request.queryString("from").map { try day($0, "from") }
            let to = try request.queryString("to").map { try day($0, "to") }
            return JSON(try database.usageStatistics(appId: request.queryString("appId"), from: from, to: to))
        }
        api.get("pause/preferences") { _, _ in JSON(try database.pausePreferences()) }
        api.put("pause/preferences") { request, context in
            try database.updatePausePreferences(try await request.decode(as: PausePreferences.self, context: context))
            return JSON(try database.pausePreferences())
        }
    }

    private func app(_ id: String) throws -> SocialApp {
        guard let app = try database.app(id: id) else { throw PauseValidationError.unknownApp(id) }
        return app
    }

    private func day(_ raw: String, _ field: String) throws -> LocalDay {
        guard let day = LocalDay(raw) else { throw APIError.badRequest(field: field, detail: "\(field) must be a date like 2025-03-09") }
        return day
    }
}
