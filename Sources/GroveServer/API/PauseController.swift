import Foundation
import GroveCore
import GroveStore
import Hummingbird

/// `/api/v1/pause/…`: apps, content, gateway sessions and usage.
struct PauseController {
    let database: AppDatabase
    /// See `ServerConfiguration.gateKey`.
    let gateKey: String
    struct Gate: Encodable, ResponseEncodable { var key: String }

    struct StartInput: Decodable {
        var appId: String
        var platform: String?
        /// During the app's scheduled block: use the week's emergency pass.
        var emergency: Bool?
        /// While a tree grows: let it wither and open the pause (`PauseRoom.open`).
        var letTreeWither: Bool?
    }
    /// The browser extension's report of the visit after Proceed: running totals.
    struct VisitInput: Decodable {
        var seconds: Int
        var graceVisits: Int?
    }
    struct StartOutput: Encodable, Sendable {
        var session: GatewaySession; var content: MindfulnessContent; var attemptsToday: Int; var app: SocialApp
    }
    struct FinishInput: Decodable { var completionStatus: GatewaySession.CompletionType; var actionOutcome: GatewaySession.ActionType? }
    struct Attempts: Encodable, Sendable { var appId: String; var attemptsToday: Int }

    func addRoutes(to api: APIRouter) {
        api.get("pause/apps", cache: .data, use: apps)
        api.get("pause/gate", cache: .data, use: gate)
        api.post("pause/apps", use: addApp)
        api.get("pause/apps/:appId", cache: .data, use: showApp)
        api.put("pause/apps/:appId", use: updateApp)
        api.delete("pause/apps/:appId", use: deleteApp)
        api.get("pause/apps/:appId/attempts", cache: .day, use: attempts)
        api.get("pause/content", cache: .data, use: contents)
        api.post("pause/content", use: addContent)
        api.get("pause/content/:contentId", cache: .data, use: showContent)
        api.delete("pause/content/:contentId", use: deleteContent)
        api.post("pause/sessions", use: startPause)
        // A pause left open becomes a timeout as time passes, with no write: kept for a second only.
        api.get("pause/sessions", cache: .second, use: pauses)
        api.get("pause/sessions/:id", cache: .second, use: showPause)
        api.post("pause/sessions/:id/finish", use: finishPause)
        api.put("pause/sessions/:id/visit", use: reportVisit)
        api.get("pause/usage", cache: .day, use: usage)
        api.get("pause/weeks", cache: .day, use: weeks)
        api.get("pause/preferences", cache: .data, use: preferences)
        api.put("pause/preferences", use: updatePreferences)
        api.patch("pause/preferences", use: changePreferences)
        api.put("pause/apps/:appId/enabled", use: setAppEnabled)
        api.get("pause/friction", cache: .day, use: friction)
        api.put("pause/apps/:appId/adaptive", use: setAdaptive)
        api.put("pause/apps/:appId/paths", use: setGatedPaths)
        api.put("pause/apps/:appId/block", use: setBlock)
        api.put("pause/apps/:appId/focus", use: setFocusAllowed)
        api.get("pause/emergency-pass", cache: .day, use: emergencyPass)
    }

    // MARK: Apps

    /// `GET /pause/apps`, in hub order.
    /// The key the extension adds to the gateway address it sends a tab to (a visit with it counts at once).
    @Sendable func gate(_ request: Request, context: GroveRequestContext) async throws -> Gate { Gate(key: gateKey) }

    @Sendable func apps(_ request: Request, context: GroveRequestContext) throws -> JSON<[SocialApp]> {
        JSON(try database.pause.apps())
    }

    /// `POST /pause/apps`: a new app (an id in use is a 422, never a replacement).
    @Sendable func addApp(_ request: Request, context: GroveRequestContext) async throws -> JSON<SocialApp> {
        let app = try await request.decode(as: SocialApp.self, context: context)
        try database.pause.addApp(app)
        return JSON(app, status: .created)
    }

    /// `GET /pause/apps/:appId`
    @Sendable func showApp(_ request: Request, context: GroveRequestContext) throws -> JSON<SocialApp> {
        JSON(try app(try context.string("appId")))
    }

    /// `PUT /pause/apps/:appId`
    @Sendable func updateApp(_ request: Request, context: GroveRequestContext) async throws -> JSON<SocialApp> {
        var app = try await request.decode(as: SocialApp.self, context: context)
        app.id = try context.string("appId")
        try database.pause.updateApp(app)
        return JSON(app)
    }

    struct EnabledInput: Decodable { var isEnabled: Bool }

    /// `PUT /pause/apps/:appId/enabled`: gate an app or stop gating it (at most 10 gated).
    @Sendable func setAppEnabled(_ request: Request, context: GroveRequestContext) async throws -> JSON<SocialApp> {
        let input = try await request.decode(as: EnabledInput.self, context: context)
        let id = try context.string("appId")
        try database.pause.setAppEnabled(id: id, input.isEnabled)
        return JSON(try app(id))
    }

    struct PathsInput: Decodable { var gatedPaths: [String] }

    /// `PUT /pause/apps/:appId/paths {gatedPaths}`: only these parts of the site are gated; none, all of it.
    @Sendable func setGatedPaths(_ request: Request, context: GroveRequestContext) async throws -> JSON<SocialApp> {
        let input = try await request.decode(as: PathsInput.self, context: context)
        return JSON(try database.pause.setGatedPaths(id: try context.string("appId"), input.gatedPaths))
    }

    struct BlockInput: Decodable {
        var schedule: String?
        var strict: Bool?
    }

    /// `PUT /pause/apps/:appId/block {schedule, strict}`: blocked outright on a schedule
    /// (`mon-fri 09:00-12:00`); a null schedule, never. 409 during a strict block.
    @Sendable func setBlock(_ request: Request, context: GroveRequestContext) async throws -> JSON<SocialApp> {
        let input = try await request.decode(as: BlockInput.self, context: context)
        return JSON(try database.pause.setBlock(id: try context.string("appId"), schedule: input.schedule, strict: input.strict ?? false))
    }

    struct FocusAllowedInput: Decodable {
        var always: Bool?
        var tags: [String]?
    }

    /// `PUT /pause/apps/:appId/focus {always, tags}`: opens through its gate while a tree grows
    /// without withering it, in every session or in sessions with one of the tags; neither, never.
    @Sendable func setFocusAllowed(_ request: Request, context: GroveRequestContext) async throws -> JSON<SocialApp> {
        let input = try await request.decode(as: FocusAllowedInput.self, context: context)
        return JSON(
            try database.pause.setFocusAllowed(id: try context.string("appId"), always: input.always ?? false, tags: input.tags ?? []))
    }

    /// `GET /pause/emergency-pass`: whether this week's pass is left, what used it, when the next comes.
    @Sendable func emergencyPass(_ request: Request, context: GroveRequestContext) throws -> JSON<EmergencyPass> {
        JSON(try database.pause.emergencyPass())
    }

    /// `GET /pause/friction`: the apps with adaptive friction on, their lengths now and last reviews.
    @Sendable func friction(_ request: Request, context: GroveRequestContext) async throws -> JSON<[AdaptiveFriction]> {
        JSON(try database.pause.friction())
    }

    struct AdaptiveOutput: Encodable, Sendable { var appId: String; var isEnabled: Bool; var friction: AdaptiveFriction? }

    /// `PUT /pause/apps/:appId/adaptive {isEnabled}`: adaptive friction on (from your pause length) or off.
    @Sendable func setAdaptive(_ request: Request, context: GroveRequestContext) async throws -> JSON<AdaptiveOutput> {
        let input = try await request.decode(as: EnabledInput.self, context: context)
        let id = try context.string("appId")
        let friction = try database.pause.setFriction(appId: id, input.isEnabled)
        return JSON(AdaptiveOutput(appId: id, isEnabled: friction != nil, friction: friction))
    }

    /// `DELETE /pause/apps/:appId`, with its pause history.
    @Sendable func deleteApp(_ request: Request, context: GroveRequestContext) throws -> NoContent {
        try database.pause.deleteApp(id: try context.string("appId"))
        return NoContent()
    }

    /// `GET /pause/apps/:appId/attempts`: how often today a pause stood before it (attempts, whatever came after).
    @Sendable func attempts(_ request: Request, context: GroveRequestContext) throws -> JSON<Attempts> {
        let id = try context.string("appId")
        _ = try app(id)
        return JSON(Attempts(appId: id, attemptsToday: try database.pause.attemptsToday(appId: id)))
    }

    // MARK: Content

    /// `GET /pause/content?category=`
    @Sendable func contents(_ request: Request, context: GroveRequestContext) throws -> JSON<[MindfulnessContent]> {
        let category = try request.query("category", MindfulnessContent.ContentCategory.init(validating:field:))
        return JSON(try database.content.all(category: category))
    }

    /// `POST /pause/content`: a user's own item.
    @Sendable func addContent(_ request: Request, context: GroveRequestContext) async throws -> JSON<MindfulnessContent> {
        let input = try await request.decode(as: AddContentInput.self, context: context)
        let item = try database.content.add(
            id: input.id, type: input.type, text: input.text, category: input.category, author: input.author, priority: input.priority)
        return JSON(try database.content.item(id: item.id) ?? item, status: .created)
    }

    /// A person's own item: the id is made when none is given (`ContentRoom.add`).
    struct AddContentInput: Decodable {
        var id: String?
        var type: MindfulnessContent.ContentType
        var text: String
        var category: MindfulnessContent.ContentCategory
        var author: String?
        var priority: Int?
    }

    /// `GET /pause/content/:contentId`
    @Sendable func showContent(_ request: Request, context: GroveRequestContext) throws -> JSON<MindfulnessContent> {
        let id = try context.string("contentId")
        guard let content = try database.content.item(id: id) else { throw PauseValidationError.unknownContent(id) }
        return JSON(content)
    }

    /// `DELETE /pause/content/:contentId`
    @Sendable func deleteContent(_ request: Request, context: GroveRequestContext) throws -> NoContent {
        try database.content.delete(id: try context.string("contentId"))
        return NoContent()
    }

    // MARK: Gateway sessions

    /// `POST /pause/sessions`: someone opens an app through its gate — one attempt, a pause with the
    /// next content. 409 (`appId`) when the app's gate is off: it opens without a pause.
    @Sendable func startPause(_ request: Request, context: GroveRequestContext) async throws -> JSON<StartOutput> {
        let input = try await request.decode(as: StartInput.self, context: context)
        let app = try app(input.appId)
        let (session, content, attempts) = try database.pause.open(
            appId: app.id, platform: input.platform ?? "web", emergency: input.emergency ?? false,
            letTreeWither: input.letTreeWither ?? false)
        return JSON(StartOutput(session: session, content: content, attemptsToday: attempts, app: app), status: .created)
    }

    /// `GET /pause/sessions?appId=&limit=`: newest first.
    @Sendable func pauses(_ request: Request, context: GroveRequestContext) throws -> JSON<[GatewaySession]> {
        JSON(try database.pause.sessions(appId: request.queryString("appId"), limit: try request.page().limit))
    }

    /// `GET /pause/sessions/:id`
    @Sendable func showPause(_ request: Request, context: GroveRequestContext) throws -> JSON<GatewaySession> {
        guard let session = try database.pause.session(id: try context.uuid("id")) else {
            throw NotFoundError("gateway session", try context.string("id"))
        }
        return JSON(session)
    }

    /// `POST /pause/sessions/:id/finish`: the status and what the person chose.
    @Sendable func finishPause(_ request: Request, context: GroveRequestContext) async throws -> JSON<GatewaySession> {
        let input = try await request.decode(as: FinishInput.self, context: context)
        return JSON(
            try database.pause.finishSession(id: try context.uuid("id"), status: input.completionStatus, outcome: input.actionOutcome))
    }

    /// `PUT /pause/sessions/:id/visit {seconds, graceVisits}`: the browser extension's measure of the
    /// visit after Proceed (the only write it makes: `OriginMiddleware` lets its origin through with
    /// the gate key). 409 for a pause that did not end with Proceed; each figure only grows.
    @Sendable func reportVisit(_ request: Request, context: GroveRequestContext) async throws -> JSON<GatewaySession> {
        let input = try await request.decode(as: VisitInput.self, context: context)
        return JSON(try database.pause.reportVisit(id: try context.uuid("id"), seconds: input.seconds, graceVisits: input.graceVisits ?? 0))
    }

    // MARK: Usage and preferences

    /// `GET /pause/weeks?appId=`: per app and week, against the week before (`PauseWeek`).
    @Sendable func weeks(_ request: Request, context: GroveRequestContext) throws -> JSON<[PauseWeek]> {
        JSON(try database.pause.weeks(appId: request.queryString("appId")))
    }

    /// `GET /pause/usage?appId=&from=&to=`: per app per local day.
    @Sendable func usage(_ request: Request, context: GroveRequestContext) throws -> JSON<[UsageStatistics]> {
        let from = try request.query("from", LocalDay.init(validating:field:))
        let to = try request.query("to", LocalDay.init(validating:field:))
        return JSON(try database.pause.statistics(appId: request.queryString("appId"), from: from, to: to))
    }

    /// Some Pause settings; the fields left out keep their stored values.
    struct PreferencesChange: Decodable {
        var timerDuration: Int?
        var selectedCategories: Set<MindfulnessContent.ContentCategory>?
        var onboardingCompleted: Bool?
        var analyticsOptIn: Bool?
    }

    /// `PATCH /pause/preferences`: changes only the fields given, in one transaction.
    @Sendable func changePreferences(_ request: Request, context: GroveRequestContext) async throws -> JSON<PausePreferences> {
        let input = try await request.decode(as: PreferencesChange.self, context: context)
        return JSON(
            try database.pause.changePreferences { preferences in
                if let value = input.timerDuration { preferences.timerDuration = value }
                if let value = input.selectedCategories { preferences.selectedCategories = value }
                if let value = input.onboardingCompleted { preferences.onboardingCompleted = value }
                if let value = input.analyticsOptIn { preferences.analyticsOptIn = value }
            })
    }

    /// `GET /pause/preferences`
    @Sendable func preferences(_ request: Request, context: GroveRequestContext) throws -> JSON<PausePreferences> {
        JSON(try database.pause.preferences())
    }

    /// `PUT /pause/preferences`
    @Sendable func updatePreferences(_ request: Request, context: GroveRequestContext) async throws -> JSON<PausePreferences> {
        let preferences = try await request.decode(as: PausePreferences.self, context: context)
        return JSON(try database.pause.updatePreferences(preferences))
    }

    private func app(_ id: String) throws -> SocialApp {
        guard let app = try database.pause.app(id: id) else { throw PauseValidationError.unknownApp(id) }
        return app
    }

}
