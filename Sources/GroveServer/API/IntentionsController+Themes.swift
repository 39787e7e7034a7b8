import Foundation
import GroveCore
import GroveRemote
import GroveStore
import Hummingbird
import ServiceLifecycle

extension IntentionsController {
    // MARK: Themes

    /// `GET /themes?kind=preset|custom|generated`
    @Sendable func themeList(_ request: Request, context: GroveRequestContext) throws -> JSON<[IntentionTheme]> {
        JSON(try database.themes.all(try request.query("kind", AppDatabase.ThemeKind.init(validating:field:))))
    }

    /// `POST /themes`: a custom theme.
    @Sendable func createTheme(_ request: Request, context: GroveRequestContext) async throws -> JSON<IntentionTheme> {
        let input = try await request.decode(as: ThemeInput.self, context: context)
        let theme = IntentionTheme(
            id: database.environment.uuid(), name: input.name, backgroundColor: input.backgroundColor,
            textColor: input.textColor, accentColor: input.accentColor, fontName: input.fontName,
            createdAt: database.environment.now())
        try database.themes.create(theme, allowLowContrast: input.allowLowContrast ?? false)
        return JSON(theme.normalized, status: .created)
    }

    /// `POST /themes/generate`: a theme from a few words, by the assistant.
    @Sendable func generateTheme(_ request: Request, context: GroveRequestContext) async throws -> JSON<IntentionTheme> {
        let input = try await request.decode(as: GenerateInput.self, context: context)
        let words = try ThemesRoom.checkedPrompt(input.prompt)
        return JSON(try database.themes.generate(prompt: words, proposal: await assistant.theme(for: words)), status: .created)
    }

    /// `GET /themes/:id`
    @Sendable func showTheme(_ request: Request, context: GroveRequestContext) throws -> JSON<IntentionTheme> {
        JSON(try theme(context))
    }

    /// `PUT /themes/:id` (preset themes are read-only).
    @Sendable func updateTheme(_ request: Request, context: GroveRequestContext) async throws -> JSON<IntentionTheme> {
        let input = try await request.decode(as: ThemeInput.self, context: context)
        let id = try context.uuid("id")
        return JSON(
            try database.themes.edit(id: id, allowLowContrast: input.allowLowContrast ?? false) { theme in
                theme.name = input.name
                theme.backgroundColor = input.backgroundColor
                theme.textColor = input.textColor
                theme.accentColor = input.accentColor
                theme.fontName = input.fontName
            })
    }

    /// `DELETE /themes/:id`: intentions shown in it fall back to the default.
    @Sendable func deleteTheme(_ request: Request, context: GroveRequestContext) throws -> NoContent {
        try database.themes.delete(id: try theme(context).id)
        return NoContent()
    }
}
