/// Themes: the looks an intention is shown in, preset, custom or generated, and the defaults.
///
/// Every operation is one transaction: faces call these and parse and render only.
public struct ThemesRoom: StoreRoom {
    let database: AppDatabase

    /// Below this nothing is saved, whatever the override: text the colour of its background.
    public static let absoluteContrast = 1.5

    /// The contrast a theme must have to be saved without asking: WCAG 2 AA for normal text (4.5:1).
    public static let minimumContrast = 4.5
}

extension AppDatabase {
    /// Themes's operations.
    public var themes: ThemesRoom { ThemesRoom(database: self) }
}
