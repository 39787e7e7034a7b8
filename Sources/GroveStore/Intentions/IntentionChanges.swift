import Foundation
import GroveCore

/// The fields of an intention a person may change after setting it; `nil` leaves a field as it is, and an
/// empty font or quote clears it.
public struct IntentionChanges: Sendable, Equatable {
    public var text: String?
    public var themeId: UUID?
    public var customFont: String?
    public var quote: String?
    /// A day within the intention's own period (its id is derived from that period).
    public var date: LocalDay?

    public init(text: String? = nil, themeId: UUID? = nil, customFont: String? = nil, quote: String? = nil, date: LocalDay? = nil) {
        self.text = text
        self.themeId = themeId
        self.customFont = customFont
        self.quote = quote
        self.date = date
    }

    /// The synced fields this change sets (recorded as choices even when a value does not change).
    var fieldNames: [String] {
        [
            ("text", text != nil), ("themeId", themeId != nil), ("customFont", customFont != nil), ("quote", quote != nil),
            ("date", date != nil),
        ]
        .filter(\.1).map(\.0)
    }
}
