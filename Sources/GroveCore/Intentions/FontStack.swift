import Foundation

/// The fonts an intention card can be shown in (`customFont`, a theme's `fontName`, the preferences'
/// `defaultFont`): a small set of web-safe stacks that every browser draws with what it has. The
/// terminal has one font, so the CLI stores these names and ignores them by design.
public enum FontStack: String, CaseIterable, Sendable {
    case system, serif, sans, rounded, mono, handwritten

    /// "Serif" (what a menu shows).
    public var label: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }

    /// The CSS `font-family` value: known faces first, a generic family last.
    public var css: String {
        switch self {
        case .system: "system-ui, -apple-system, 'Segoe UI', Roboto, Ubuntu, sans-serif"
        case .serif: "Georgia, 'Iowan Old Style', 'Palatino Linotype', 'Times New Roman', serif"
        case .sans: "'Helvetica Neue', Arial, 'Liberation Sans', sans-serif"
        case .rounded: "ui-rounded, 'SF Pro Rounded', 'Nunito', 'Varela Round', system-ui, sans-serif"
        case .mono: "ui-monospace, 'SF Mono', Menlo, Consolas, 'DejaVu Sans Mono', monospace"
        case .handwritten: "'Segoe Print', 'Bradley Hand', 'Comic Neue', cursive"
        }
    }

    /// The CSS for a stored font name: one of the stacks by name (any case), else the name itself as a
    /// quoted family in front of the system stack when it is plain letters, digits, spaces and
    /// hyphens (a name like `x; background:url(…)` must never reach a style attribute), else nil.
    public static func css(for name: String?) -> String? {
        guard let raw = name?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else { return nil }
        if let stack = FontStack(rawValue: raw.lowercased()) { return stack.css }
        guard isFamilyName(raw) else { return nil }
        return "'\(raw)', \(FontStack.system.css)"
    }

    /// The most characters a font's own name may have.
    public static let maximumNameLength = 60

    /// Whether `name` may be stored as a font: empty (none), one of the stacks by name, or a family
    /// name of at most 60 letters, digits, spaces and hyphens. Every write of a font field checks
    /// this, so what the store keeps is what a page can draw: a name that `css(for:)` would drop is
    /// refused with a reason instead of kept and silently ignored.
    public static func isStorable(_ name: String) -> Bool {
        let raw = name.trimmingCharacters(in: .whitespaces)
        return raw.isEmpty || FontStack(rawValue: raw.lowercased()) != nil || isFamilyName(raw)
    }

    /// What `isStorable` accepts, in words (the validation message).
    public static var rule: String {
        "one of \(allCases.map(\.rawValue).joined(separator: ", ")) or a font's name (letters, digits, spaces, hyphens; at most \(maximumNameLength))"
    }

    private static func isFamilyName(_ raw: String) -> Bool {
        raw.unicodeScalars.count <= maximumNameLength
            && raw.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == " " || $0 == "-" })
    }

    /// The font a card is drawn in: the intention's own, else its theme's, else the default.
    public static func resolve(intention: String?, theme: String?, preferred: String?) -> String? {
        css(for: intention) ?? css(for: theme) ?? css(for: preferred)
    }
}
