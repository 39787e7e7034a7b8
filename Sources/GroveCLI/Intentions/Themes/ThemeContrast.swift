import Foundation
import GroveCore
import GroveStore

/// The warning a theme saved under 4.5:1 (by `--allow-low-contrast`) gets, on standard error.
enum ThemeContrast {
    static func warn(_ theme: IntentionTheme) {
        guard theme.contrastRatio < ThemesRoom.minimumContrast else { return }
        Output.note(
            "warning: \(theme.name)'s text is hard to read at \(String(format: "%.1f", theme.contrastRatio)):1 (4.5:1 keeps it readable)\n")
    }
}
