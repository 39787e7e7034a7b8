import GroveCore

/// Themes: the looks an intention is shown in, preset, custom or generated, and the defaults.
///
/// Every operation is one transaction: faces call these and parse and render only.
public struct ThemesRoom: StoreRoom {
    let database: AppDatabase

    /// Below this nothing is saved, whatever the override (`IntentionTheme.absoluteContrast`).
    public static let absoluteContrast = IntentionTheme.absoluteContrast

    /// The contrast a theme must have to be saved without asking (`IntentionTheme.minimumContrast`).
    public static let minimumContrast = IntentionTheme.minimumContrast
}

extension AppDatabase {
    /// Themes's operations.
    public var themes: ThemesRoom { ThemesRoom(database: self) }
}
