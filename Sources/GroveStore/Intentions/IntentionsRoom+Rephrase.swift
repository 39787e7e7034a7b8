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
    /// Who proposed it: "offline" (Grove's built-in assistant) or the model that did.
    public var assistant: String = "offline"
}

extension IntentionsRoom {
    /// Rephrases an intention: a preview, or saved when `apply` is true (then it is marked
    /// `aiRephrased` and takes the quote). `proposal` is a wording an assistant made (a model, or the
    /// one the person saw in a preview and accepted); without one, the offline assistant's. A
    /// proposal is held to the intention rules like any text. One operation for every face.
    public func rephrase(
        id: UUID, apply: Bool, proposal: String? = nil, quote proposedQuote: String? = nil,
        assistant: String = "offline"
    ) throws -> Rephrasing {
        guard var intention = try find(id: id) else { throw NotFoundError("intention", id.uuidString) }
        let text =
            proposal?.trimmingCharacters(in: .whitespacesAndNewlines) ?? OfflineAssistant.rephrased(intention.text, scope: intention.scope)
        let quote = try proposedQuote ?? OfflineAssistant.bestQuote(for: intention.text, from: database.content.all())
        var proposed = intention
        proposed.text = text
        proposed.quote = quote ?? intention.quote
        try proposed.validate()
        if apply {
            intention.text = text
            intention.aiRephrased = true
            intention.quote = quote ?? intention.quote
            intention = try update(intention)
        }
        return Rephrasing(text: text, quote: quote, intention: intention, applied: apply, assistant: assistant)
    }
}

extension ThemesRoom {
    /// The theme an intention is shown in: its own, else the person's default, else Serene.
    public func display(for intention: Intention) throws -> IntentionTheme { try chosen(for: intention) ?? PresetThemes.serene }

    /// The theme someone chose for `intention`: its own, or else the preferred one; nil when neither
    /// was chosen (or either was deleted), and a face may draw it in its own colours.
    public func chosen(for intention: Intention) throws -> IntentionTheme? {
        if let own = intention.themeId, let theme = try find(id: own) { return theme }
        if let fallback = try database.intentions.storedPreferences()?.defaultThemeId, let theme = try find(id: fallback) {
            return theme
        }
        return nil
    }
}
