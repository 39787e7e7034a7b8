import Foundation

/// A visual theme for showing an intention (seed 004).
public struct IntentionTheme: Identifiable, Hashable, Sendable, Codable {
    public var id: UUID
    public var name: String
    public var backgroundColor: String
    public var textColor: String
    public var accentColor: String?
    public var fontName: String?
    public var isPreset: Bool
    public var isAIGenerated: Bool
    public var createdAt: Date

    public init(
        id: UUID, name: String, backgroundColor: String, textColor: String, accentColor: String? = nil, fontName: String? = nil,
        isPreset: Bool = false, isAIGenerated: Bool = false, createdAt: Date
    ) {
        self.id = id
        self.name = name
        self.backgroundColor = backgroundColor
        self.textColor = textColor
        self.accentColor = accentColor
        self.fontName = fontName
        self.isPreset = isPreset
        self.isAIGenerated = isAIGenerated
        self.createdAt = createdAt
    }

    /// The theme with its colours in their stored form (see `HexColor.normalized`).
    public var normalized: IntentionTheme {
        var theme = self
        theme.backgroundColor = HexColor.normalized(backgroundColor)
        theme.textColor = HexColor.normalized(textColor)
        theme.accentColor = accentColor.map(HexColor.normalized)
        return theme
    }

    /// The most characters a theme's name may have (as a timer's).
    public static let maxNameLength = 100

    /// Below this nothing is saved, whatever the override: text the colour of its background. The
    /// sync server holds pushed themes to it too, so that no device is sent a theme it would refuse.
    public static let absoluteContrast = 1.5

    /// The contrast a theme must have to be saved without asking: WCAG 2 AA for normal text (4.5:1).
    public static let minimumContrast = 4.5

    public func validate() throws(IntentionValidationError) {
        guard !name.containsNUL else { throw .nulCharacter(field: "name") }
        guard !name.trimmingCharacters(in: .whitespaces).isEmpty else { throw .emptyThemeName }
        guard name.storedLength <= Self.maxNameLength else { throw .themeNameTooLong(name.storedLength) }
        if let fontName, !FontStack.isStorable(fontName) { throw .invalidFont(field: "fontName") }
        guard HexColor.isValid(backgroundColor) else { throw .invalidColor(field: "backgroundColor", value: backgroundColor) }
        guard HexColor.isValid(textColor) else { throw .invalidColor(field: "textColor", value: textColor) }
        if let accentColor, !HexColor.isValid(accentColor) { throw .invalidColor(field: "accentColor", value: accentColor) }
    }

    /// WCAG contrast between text and background.
    public var contrastRatio: Double { HexColor.contrastRatio(textColor, backgroundColor) ?? 1 }

    /// The accent where it reads on the background (4.5:1), else the text colour: the small labels
    /// drawn in it stay legible whatever accent a theme picked (Minimal's grey on white is 2.7:1).
    public var readableAccent: String {
        if let accentColor, (HexColor.contrastRatio(accentColor, backgroundColor) ?? 1) >= 4.5 { return accentColor }
        return textColor
    }
}

/// The five built-in themes (seed 004). Fixed ids make populating them idempotent on every device.
public enum PresetThemes {
    /// Epoch of the presets' `createdAt`, so that they sort first and identically everywhere.
    public static let createdAt = Date(timeIntervalSince1970: 0)

    public static let serene = IntentionTheme(
        id: UUID(uuidString: "6A0F0001-0000-4000-8000-000000000001")!, name: "Serene",
        backgroundColor: "#ECEFF1", textColor: "#263238", accentColor: "#607D8B", isPreset: true, createdAt: createdAt)
    public static let vibrant = IntentionTheme(
        id: UUID(uuidString: "6A0F0001-0000-4000-8000-000000000002")!, name: "Vibrant",
        backgroundColor: "#C62828", textColor: "#FFFFFF", accentColor: "#FFD54F", isPreset: true, createdAt: createdAt)
    public static let minimal = IntentionTheme(
        id: UUID(uuidString: "6A0F0001-0000-4000-8000-000000000003")!, name: "Minimal",
        backgroundColor: "#FFFFFF", textColor: "#000000", accentColor: "#9E9E9E", isPreset: true, createdAt: createdAt)
    public static let sunset = IntentionTheme(
        id: UUID(uuidString: "6A0F0001-0000-4000-8000-000000000004")!, name: "Sunset",
        backgroundColor: "#BF360C", textColor: "#FFFFFF", accentColor: "#FFB74D", isPreset: true, createdAt: createdAt)
    public static let ocean = IntentionTheme(
        id: UUID(uuidString: "6A0F0001-0000-4000-8000-000000000005")!, name: "Ocean",
        backgroundColor: "#01579B", textColor: "#FFFFFF", accentColor: "#4FC3F7", isPreset: true, createdAt: createdAt)

    /// Serene, Vibrant, Minimal, Sunset, Ocean.
    public static func getAll() -> [IntentionTheme] { [serene, vibrant, minimal, sunset, ocean] }

    /// What a preset is for, in the seed's words ("Calm and peaceful"); nil for any other theme.
    public static func description(of theme: IntentionTheme) -> String? {
        switch theme.id {
        case serene.id: "Calm and peaceful"
        case vibrant.id: "Energetic and bold"
        case minimal.id: "Clean and simple"
        case sunset.id: "Warm and cozy"
        case ocean.id: "Cool and refreshing"
        default: nil
        }
    }
}
