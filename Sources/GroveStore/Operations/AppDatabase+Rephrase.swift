import Foundation
import GroveCore

/// A rephrased intention: the new wording and a fitting quote, applied or only proposed.
public struct Rephrasing: Codable, Sendable, Equatable {
    /// The proposed wording.
    public var text: String
    /// A quote from the content library that fits, if one does.
    public var quote: String?
    /// The intention as stored now: changed when applied, as it was when only proposed.
    public var intention: Intention
    /// Whether the new wording was saved.
    public var applied: Bool
}

extension AppDatabase {
    /// Rephrases an intention with the offline assistant: a preview, or saved when `apply` is true
    /// (then it is marked `aiRephrased` and takes the quote). One operation for every face.
    public func rephraseIntention(id: UUID, apply: Bool) throws -> Rephrasing {
        guard var intention = try intention(id: id) else { throw NotFoundError("intention", id.uuidString) }
        let text = OfflineAssistant.rephrased(intention.text, scope: intention.scope)
        let quote = OfflineAssistant.bestQuote(for: intention.text, from: try contents())
        if apply {
            intention.text = text
            intention.aiRephrased = true
            intention.quote = quote ?? intention.quote
            intention = try updateIntention(intention)
        }
        return Rephrasing(text: text, quote: quote, intention: intention, applied: apply)
    }

    /// The theme an intention is shown in: its own, else the person's default, else Serene.
    public func displayTheme(for intention: Intention) throws -> IntentionTheme {
        if let own = intention.themeId, let theme = try theme(id: own) { return theme }
        if let fallback = try storedUserPreferences()?.defaultThemeId, let theme = try theme(id: fallback) {
            return theme
        }
        return PresetThemes.serene
    }
}
