import Foundation
import GroveCore
import GroveStore
import HTTPTypes
import Hummingbird

struct ThemeView: Encodable {
    var id: String
    var name: String
    var background: String
    var color: String
    var accent: String
    var kind: String
    var deletable: Bool
    var contrast: String
    var isDefault: Bool
    /// A preset's words ("Calm and peaceful").
    var description: String?
    /// The CSS font stack the swatch is drawn in (nil: the page's).
    var font: String?
    /// The colours as `<input type=color>` reads them (lower case) for the edit form.
    var backgroundInput: String
    var textInput: String
    var accentInput: String
    var fonts: [FontOption]
}

struct ThemesPage: Encodable {
    var title: String
    var bare = false
    /// The kind shown (`?kind=`), nil for all; the filter's links.
    var kind: String?
    var kinds: [CategoryView]
    var themes: [ThemeView]
    /// The font menu of the "make your own" form, and of the default font.
    var fonts: [FontOption]
    var defaultFonts: [FontOption]
}

extension WebController {
    func themes(kind: AppDatabase.ThemeKind?) throws -> ThemesPage {
        let preferences = try database.intentions.preferences()
        let list = try database.themes.all(kind).map { t in
            ThemeView(
                id: t.id.uuidString, name: t.name, background: t.backgroundColor, color: t.textColor, accent: t.readableAccent,
                kind: AppDatabase.ThemeKind(of: t).rawValue.capitalized, deletable: !t.isPreset,
                contrast: String(format: "%.1f", t.contrastRatio), isDefault: t.id == preferences.defaultThemeId,
                description: PresetThemes.description(of: t), font: FontStack.css(for: t.fontName),
                backgroundInput: t.backgroundColor.lowercased(), textInput: t.textColor.lowercased(),
                accentInput: (t.accentColor ?? t.textColor).lowercased(), fonts: Self.fontOptions(selected: t.fontName))
        }
        let kinds = AppDatabase.ThemeKind.allCases.map {
            CategoryView(id: $0.rawValue, name: $0.rawValue.capitalized, selected: $0 == kind)
        }
        return ThemesPage(
            title: "Themes", kind: kind?.rawValue, kinds: kinds, themes: list, fonts: Self.fontOptions(selected: nil),
            defaultFonts: Self.fontOptions(selected: preferences.defaultFont))
    }

    /// The font menu: Default (none), the web-safe stacks, and a stored name that is none of them.
    static func fontOptions(selected: String?) -> [FontOption] {
        let known = FontStack.allCases.map {
            FontOption(value: $0.rawValue, label: $0.label, selected: selected?.lowercased() == $0.rawValue)
        }
        let other =
            selected.flatMap { name in
                FontStack(rawValue: name.lowercased()) == nil && !name.isEmpty
                    ? [FontOption(value: name, label: name, selected: true)] : nil
            } ?? []
        return [FontOption(value: "", label: "Default", selected: selected?.isEmpty ?? true)] + known + other
    }
}
